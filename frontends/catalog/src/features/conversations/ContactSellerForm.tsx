import { MAX_MESSAGE_LENGTH } from '@cartable/contracts/limits';
import {
  Alert,
  ApiError,
  Button,
  Checkbox,
  errorMessage,
  formatNumber,
  notify,
  Textarea,
  useSubmissionKey,
} from '@cartable/ui';
import type { ReactNode, RefObject } from 'react';
import { useForm } from 'react-hook-form';
import type { BookDetail } from '../../shared/books';
import { messages } from '../../shared/messages';
import { type SendResult, useSendMessage } from './api/conversations';
import { messageChecks } from './checks';
import { type ContactIntent, sellerIdOf } from './seller';

/** Longest message the API accepts (libs/contracts). */
export const MESSAGE_MAX = MAX_MESSAGE_LENGTH;

/** The message fields of POST /messages (the receiver and the book come from the page). */
export interface MessageFormValues {
  content: string;
  send_email_copy: boolean;
}

const QUICK_REPLIES = [
  'Bonjour, ce manuel est-il toujours disponible ?',
  'Le prix est-il négociable ?',
  'Où pourrions-nous nous retrouver pour la remise ?',
];

export { type ContactIntent, sellerIdOf } from './seller';

export function initialContactText(intent: ContactIntent, title: string): string {
  return intent === 'exchange'
    ? `Bonjour, je suis intéressé(e) par un échange pour votre manuel « ${title} ». Je vous propose en échange : `
    : '';
}

/** Success toasts of a sent message (SPEC section 8). */
export function announceSent(result: SendResult, askedCopy: boolean) {
  void notify.success(messages.sendSuccess);
  if (result.email_copy_sent ?? askedCopy) void notify.success(messages.emailCopySent);
}

/** Failure toast: the generic French message, with the server's own message when it sent one. */
export function announceSendError(error: unknown) {
  // Kept on the phone until the network returns: not an error, the member can go on.
  if (error instanceof ApiError && error.isQueued) {
    void notify.info(error.message);
    return;
  }
  const detail = errorMessage(error, '');
  void notify.error(messages.sendError, {
    description: detail && detail !== messages.sendError ? detail : undefined,
  });
}

/** "123/2000", amber near the limit. */
export function CharacterCount({ length, id }: { length: number; id?: string }) {
  const near = length > MESSAGE_MAX - 100;
  return (
    <span id={id} className={near ? 'font-semibold text-amber-700' : undefined}>
      {formatNumber(length)}/{formatNumber(MESSAGE_MAX)} caractères
    </span>
  );
}

export interface ContactSellerFormProps {
  book: BookDetail;
  intent?: ContactIntent;
  onSent: (result: SendResult) => void;
  /** Extra buttons beside "Envoyer" (the dialog's "Annuler"); they get the pending flag. */
  secondaryAction?: (pending: boolean) => ReactNode;
  onPendingChange?: (pending: boolean) => void;
  /** The message field (a dialog focuses it on opening). */
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}

/**
 * Message to a book's seller (POST /api/messages) with quick replies and an optional e-mail copy.
 * Used by the book page's dialog and by /contact-seller/:bookId.
 */
export function ContactSellerForm({
  book,
  intent = 'contact',
  onSent,
  secondaryAction,
  onPendingChange,
  textareaRef,
}: ContactSellerFormProps) {
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    setFocus,
    watch,
    formState: { errors },
  } = useForm<MessageFormValues>({
    defaultValues: { content: initialContactText(intent, book.title), send_email_copy: false },
    resolver: messageChecks.resolver((checks) => checks.messageFormResolver),
    // The error shows on sending and goes as soon as the text changes.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const content = watch('content');
  const copy = watch('send_email_copy');
  const error = errors.content?.message;
  const field = register('content', { onChange: () => clearErrors('content') });

  const submission = useSubmissionKey();
  const mutation = useSendMessage(book.id, sellerIdOf(book), {
    onMutate: () => onPendingChange?.(true),
    onSettled: () => onPendingChange?.(false),
    onSuccess: (result) => {
      submission.renew();
      announceSent(result, copy);
      setValue('content', '');
      onSent(result);
    },
    onError: (failure) => {
      announceSendError(failure);
      // Refused (invalid, or a block between the two members): said under the message, in view.
      if (failure instanceof ApiError && (failure.status === 422 || failure.status === 403)) {
        const message = failure.fieldError('content') ?? (failure.hasServerMessage ? failure.message : undefined);
        if (message) setError('content', { type: 'server', message });
      }
    },
  });

  const submit = handleSubmit((values) => {
    if (mutation.isPending) return;
    mutation.mutate({ ...values, idempotencyKey: submission.current() });
  });

  const serverDetail = mutation.isError ? errorMessage(mutation.error, '') : '';

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4"
      aria-label="Message au vendeur"
      {...messageChecks.loadOnTouch}
    >
      {mutation.isError && !error ? (
        <Alert tone="error" title={messages.sendError}>
          {serverDetail || "Votre message n'est pas parti. Réessayez dans un instant."}
        </Alert>
      ) : null}
      {intent === 'contact' ? (
        <ul className="flex flex-wrap gap-2" aria-label="Messages rapides">
          {QUICK_REPLIES.map((text) => (
            <li key={text}>
              <button
                type="button"
                onClick={() => {
                  const c = content;
                  setValue('content', (c.trim() ? `${c.trim()} ${text}` : text).slice(0, MESSAGE_MAX));
                  clearErrors('content');
                  setFocus('content');
                }}
                className="rounded-full border border-slate-300 bg-white px-3 py-1.5 text-left text-xs text-slate-700 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary-300 focus-visible:outline-none"
              >
                {text}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <Textarea
        {...field}
        ref={(element) => {
          field.ref(element);
          if (textareaRef) textareaRef.current = element;
        }}
        label="Votre message"
        rows={5}
        maxLength={MESSAGE_MAX}
        error={error}
        hint={<CharacterCount length={content.length} />}
        placeholder="Présentez-vous et posez vos questions au vendeur…"
      />
      <Checkbox label="M'envoyer une copie par email" {...register('send_email_copy')} />
      <div className="flex flex-col-reverse gap-2 pb-1 sm:flex-row sm:justify-end">
        {secondaryAction?.(mutation.isPending)}
        <Button type="submit" loading={mutation.isPending}>
          Envoyer le message
        </Button>
      </div>
    </form>
  );
}

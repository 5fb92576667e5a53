import { Alert, ApiError, Button, Checkbox, errorMessage, notify, Textarea, useSubmissionKey } from '@cartable/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, type RefObject, useRef, useState } from 'react';
import type { Book } from '../lib/books';
import { MESSAGE_MAX, messageKeys, type SendResult, sendMessage } from '../lib/conversations';
import { messages } from '../lib/messages';

const QUICK_REPLIES = [
  'Bonjour, ce manuel est-il toujours disponible ?',
  'Le prix est-il négociable ?',
  'Où pourrions-nous nous retrouver pour la remise ?',
];

export type ContactIntent = 'contact' | 'exchange';

export function initialContactText(intent: ContactIntent, title: string): string {
  return intent === 'exchange'
    ? `Bonjour, je suis intéressé(e) par un échange pour votre manuel « ${title} ». Je vous propose en échange : `
    : '';
}

/** The seller of a book (the detail carries `seller`, lists only `user_id`). */
export function sellerIdOf(book: Pick<Book, 'seller' | 'user_id'>): string {
  return book.seller?.id ?? book.user_id;
}

/** Success toasts of a sent message (SPEC section 8). */
export function announceSent(result: SendResult, askedCopy: boolean) {
  void notify.success(messages.sendSuccess);
  if (result.email_copy_sent ?? askedCopy) void notify.success(messages.emailCopySent);
}

/** Failure toast: the generic French message, with the server's own message when it sent one. */
export function announceSendError(error: unknown) {
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
      {length.toLocaleString('fr-FR')}/{MESSAGE_MAX.toLocaleString('fr-FR')} caractères
    </span>
  );
}

export interface ContactSellerFormProps {
  book: Book;
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
  const queryClient = useQueryClient();
  const [content, setContent] = useState(() => initialContactText(intent, book.title));
  const [copy, setCopy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const areaRef = textareaRef ?? ownRef;

  const submission = useSubmissionKey();
  const mutation = useMutation({
    mutationFn: () =>
      sendMessage(
        { receiver_id: sellerIdOf(book), book_id: book.id, content: content.trim(), send_email_copy: copy },
        submission.current(),
      ),
    onMutate: () => onPendingChange?.(true),
    onSettled: () => onPendingChange?.(false),
    onSuccess: (result) => {
      submission.renew();
      announceSent(result, copy);
      void queryClient.invalidateQueries({ queryKey: messageKeys.conversations });
      void queryClient.invalidateQueries({ queryKey: messageKeys.thread(book.id, sellerIdOf(book)) });
      setContent('');
      onSent(result);
    },
    onError: (failure) => {
      announceSendError(failure);
      if (failure instanceof ApiError && failure.status === 422) {
        setError(failure.fieldError('content') ?? (failure.hasServerMessage ? failure.message : undefined));
      }
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending) return;
    if (!content.trim()) {
      setError(messages.messageRequired);
      areaRef.current?.focus();
      return;
    }
    mutation.mutate();
  };

  const serverDetail = mutation.isError ? errorMessage(mutation.error, '') : '';

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Message au vendeur">
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
                  setContent((c) => (c.trim() ? `${c.trim()} ${text}` : text).slice(0, MESSAGE_MAX));
                  setError(undefined);
                  areaRef.current?.focus();
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
        ref={areaRef}
        label="Votre message"
        rows={5}
        maxLength={MESSAGE_MAX}
        value={content}
        error={error}
        hint={<CharacterCount length={content.length} />}
        onChange={(event) => {
          setContent(event.target.value);
          if (error) setError(undefined);
        }}
        placeholder="Présentez-vous et posez vos questions au vendeur…"
      />
      <Checkbox
        label="M'envoyer une copie par email"
        checked={copy}
        onChange={(event) => setCopy(event.target.checked)}
      />
      <div className="flex flex-col-reverse gap-2 pb-1 sm:flex-row sm:justify-end">
        {secondaryAction?.(mutation.isPending)}
        <Button type="submit" loading={mutation.isPending}>
          Envoyer le message
        </Button>
      </div>
    </form>
  );
}

import { ApiError, Button, cn, MessageIcon, Spinner, useSubmissionKey } from '@cartable/ui';
import { type KeyboardEvent, useId, useLayoutEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useSendMessage } from '../api/conversations';
import {
  announceSendError,
  announceSent,
  CharacterCount,
  MESSAGE_MAX,
  type MessageFormValues,
} from '../ContactSellerForm';
import { messageChecks } from '../checks';

/**
 * The reply field under a thread: Enter sends, Shift+Enter adds a line; blank is refused (the
 * contract's message); 2000 characters at most; the field grows with its text up to six lines.
 */
export function Composer({
  bookId,
  receiverId,
  otherName,
  disabled,
  onSent,
}: {
  bookId: number;
  receiverId: string;
  otherName: string;
  disabled: boolean;
  onSent: () => void;
}) {
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
    defaultValues: { content: '', send_email_copy: false },
    resolver: messageChecks.resolver((checks) => checks.messageFormResolver),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const content = watch('content');
  const copy = watch('send_email_copy');
  const error = errors.content?.message;
  const field = register('content', { onChange: () => clearErrors('content') });
  const areaRef = useRef<HTMLTextAreaElement | null>(null);
  const fieldId = useId();
  const errorId = `${fieldId}-error`;
  const countId = `${fieldId}-count`;

  // The field grows with its text up to about six lines.
  // biome-ignore lint/correctness/useExhaustiveDependencies: measures on every text change
  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, 160)}px`;
  }, [content]);

  const submission = useSubmissionKey();
  const send = useSendMessage(bookId, receiverId, {
    onSuccess: (result) => {
      submission.renew();
      announceSent(result, copy);
      setValue('content', '');
      onSent();
      setFocus('content');
    },
    onError: (failure) => {
      announceSendError(failure);
      // Kept on the phone (« En attente d'envoi »): the field is free for the next message.
      if (failure instanceof ApiError && failure.isQueued) {
        submission.renew();
        setValue('content', '');
        return;
      }
      if (failure instanceof ApiError && failure.status === 422) {
        const message = failure.fieldError('content') ?? (failure.hasServerMessage ? failure.message : undefined);
        if (message) setError('content', { type: 'server', message });
      }
    },
  });

  const submit = handleSubmit((values) => {
    if (send.isPending) return;
    send.mutate({ ...values, idempotencyKey: submission.current() });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Répondre à ${otherName}`}
      className="border-t border-slate-200 bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:px-4 sm:pt-3 sm:pb-3"
      {...messageChecks.loadOnTouch}
    >
      <label htmlFor={fieldId} className="sr-only">
        Votre message
      </label>
      <div className="flex items-end gap-2">
        <textarea
          {...field}
          ref={(element) => {
            field.ref(element);
            areaRef.current = element;
          }}
          id={fieldId}
          rows={1}
          maxLength={MESSAGE_MAX}
          disabled={disabled}
          onKeyDown={onKeyDown}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? errorId : null, countId].filter(Boolean).join(' ')}
          placeholder={`Écrire à ${otherName}…`}
          enterKeyHint="send"
          className={cn(
            'block max-h-40 min-h-11 w-full resize-none rounded-2xl border bg-white px-3.5 py-2.5 text-base text-slate-900 placeholder:text-slate-400 focus:ring-4 focus:outline-none',
            error
              ? 'border-red-500 focus:border-red-500 focus:ring-red-200'
              : 'border-slate-300 focus:border-primary-600 focus:ring-primary-100',
          )}
        />
        <Button
          type="submit"
          className="h-11 shrink-0 rounded-full px-4"
          disabled={disabled}
          aria-busy={send.isPending}
        >
          {send.isPending ? <Spinner size="sm" label={null} /> : <MessageIcon size={18} />}
          <span className="sr-only sm:not-sr-only">Envoyer</span>
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="mt-1.5 flex items-center justify-between gap-3 text-xs text-slate-500">
        <label className="tap-target flex cursor-pointer items-center gap-2 py-1">
          <input
            type="checkbox"
            {...register('send_email_copy')}
            className="h-4 w-4 rounded border-slate-300 accent-primary-700"
          />
          <span className="text-slate-700">M'envoyer une copie par email</span>
        </label>
        <CharacterCount id={countId} length={content.length} />
      </div>
    </form>
  );
}

import { COMMENT_MAX_LENGTH, COMMENT_WARNING_LEFT, commentUpdateRequestSchema } from '@cartable/contracts';
import { ApiError, Button, cn, Textarea } from '@cartable/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';

export interface CommentFormProps {
  label: string;
  submitLabel: string;
  initialValue?: string;
  placeholder?: string;
  /** Sends the text; a rejected promise with a 422 shows the server's message under the field. */
  onSubmit: (content: string) => Promise<unknown>;
  onCancel?: () => void;
  autoFocus?: boolean;
  /** Shown under the field (e.g. the moderation notice). */
  note?: string;
  /** The visitor is not signed in: submitting shows this instead of sending. */
  onBlocked?: () => void;
}

/** The text of a comment, a reply or an edit: the contract's rules and French messages (2 to 500 characters). */
const resolver = zodResolver(commentUpdateRequestSchema);

/**
 * A comment, a reply or an edit: counter of the characters left (warning under 50), SPEC section 5
 * messages, submit disabled while empty or over 500 characters.
 */
export function CommentForm({
  label,
  submitLabel,
  initialValue = '',
  placeholder,
  onSubmit,
  onCancel,
  autoFocus,
  note,
  onBlocked,
}: CommentFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    clearErrors,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<{ content: string }>({
    defaultValues: { content: initialValue },
    resolver,
    // The error shows on submit and goes as soon as the text changes.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const content = watch('content');
  const error = errors.content?.message;
  const counterId = useId();
  const left = COMMENT_MAX_LENGTH - content.length;
  const blank = content.trim().length === 0;

  const send = handleSubmit(async ({ content: text }) => {
    try {
      await onSubmit(text);
      reset({ content: '' });
    } catch (failure) {
      // A refusal (invalid, or a block between the two members) is said under the field, where
      // the member is looking.
      if (failure instanceof ApiError && (failure.status === 422 || failure.status === 403)) {
        setError('content', { type: 'server', message: failure.fieldError('content') ?? failure.message });
        setFocus('content');
      }
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => {
        if (onBlocked) {
          event.preventDefault();
          onBlocked();
          return;
        }
        if (isSubmitting) {
          event.preventDefault();
          return;
        }
        void send(event);
      }}
      className="space-y-2"
    >
      <Textarea
        label={label}
        placeholder={placeholder}
        rows={3}
        autoFocus={autoFocus}
        error={error}
        aria-describedby={error ? undefined : counterId}
        {...register('content', { onChange: () => clearErrors('content') })}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p
          id={counterId}
          data-testid="comment-counter"
          className={cn(
            'text-xs',
            left < 0
              ? 'font-semibold text-red-700'
              : left < COMMENT_WARNING_LEFT
                ? 'font-semibold text-accent-800'
                : 'text-slate-500',
          )}
        >
          {left >= 0
            ? `${left} caractère${left > 1 ? 's' : ''} restant${left > 1 ? 's' : ''}`
            : `${-left} caractère${left < -1 ? 's' : ''} en trop`}
        </p>
        <div className="flex gap-2">
          {onCancel ? (
            <Button variant="ghost" size="sm" onClick={onCancel} disabled={isSubmitting}>
              Annuler
            </Button>
          ) : null}
          <Button type="submit" size="sm" loading={isSubmitting} disabled={blank || left < 0}>
            {submitLabel}
          </Button>
        </div>
      </div>
      {note ? <p className="text-xs text-slate-500">{note}</p> : null}
    </form>
  );
}

import { ApiError, Button, cn, Textarea } from '@cartable/ui';
import { type FormEvent, useId, useRef, useState } from 'react';
import { COMMENT_MAX, COMMENT_WARNING, validateComment } from './comments';

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
  const [content, setContent] = useState(initialValue);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const counterId = useId();
  const left = COMMENT_MAX - content.length;
  const blank = content.trim().length === 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    if (onBlocked) {
      onBlocked();
      return;
    }
    const problem = validateComment(content);
    if (problem) {
      setError(problem);
      areaRef.current?.focus();
      return;
    }
    setSending(true);
    try {
      await onSubmit(content.trim());
      setContent('');
      setError(undefined);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 422) {
        setError(failure.fieldError('content') ?? failure.message);
        areaRef.current?.focus();
      }
    } finally {
      setSending(false);
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-2">
      <Textarea
        ref={areaRef}
        label={label}
        value={content}
        placeholder={placeholder}
        rows={3}
        autoFocus={autoFocus}
        error={error}
        aria-describedby={error ? undefined : counterId}
        onChange={(event) => {
          setContent(event.target.value);
          if (error) setError(undefined);
        }}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p
          id={counterId}
          data-testid="comment-counter"
          className={cn(
            'text-xs',
            left < 0
              ? 'font-semibold text-red-700'
              : left < COMMENT_WARNING
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
            <Button variant="ghost" size="sm" onClick={onCancel} disabled={sending}>
              Annuler
            </Button>
          ) : null}
          <Button type="submit" size="sm" loading={sending} disabled={blank || left < 0}>
            {submitLabel}
          </Button>
        </div>
      </div>
      {note ? <p className="text-xs text-slate-500">{note}</p> : null}
    </form>
  );
}

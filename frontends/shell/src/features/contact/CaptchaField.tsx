import { Alert, Button, Input, type InputProps, RefreshIcon, Skeleton } from '@cartable/ui';
import type { useCaptcha } from './api/contact';

/**
 * « Vérification anti-robot »: the server's arithmetic question and the answer's field, with
 * « Nouvelle question »; a question that could not be read offers « Réessayer ».
 */
export function CaptchaField({
  captcha,
  onNewQuestion,
  answer,
}: {
  captcha: ReturnType<typeof useCaptcha>;
  onNewQuestion: () => void;
  /** The answer's registered field and its error. */
  answer: Omit<InputProps, 'label'>;
}) {
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-slate-50 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-800">Vérification anti-robot</legend>
      {captcha.isError ? (
        <Alert
          tone="error"
          action={
            <Button variant="outline" size="sm" onClick={onNewQuestion} loading={captcha.isFetching}>
              Réessayer
            </Button>
          }
        >
          La question de vérification n'a pas pu être chargée.
        </Alert>
      ) : (
        <div className="flex items-start gap-2">
          <Input
            className="flex-1"
            label={
              captcha.data ? (
                <span data-testid="captcha-question" data-captcha-id={captcha.data.captcha_id}>
                  {captcha.data.question}
                </span>
              ) : (
                <Skeleton className="inline-block h-4 w-40 align-middle" />
              )
            }
            inputMode="numeric"
            autoComplete="off"
            hint="Répondez en chiffres."
            disabled={!captcha.data}
            {...answer}
          />
          <Button
            variant="outline"
            size="icon"
            className="mt-[1.625rem] h-11 w-11"
            aria-label="Nouvelle question"
            title="Nouvelle question"
            onClick={onNewQuestion}
            disabled={captcha.isFetching}
          >
            <RefreshIcon size={18} className={captcha.isFetching ? 'animate-spin' : undefined} />
          </Button>
        </div>
      )}
    </fieldset>
  );
}

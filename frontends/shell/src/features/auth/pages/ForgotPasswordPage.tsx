import { messages } from '@cartable/contracts/messages';
import {
  Alert,
  ApiError,
  Button,
  buttonClasses,
  Card,
  CardBody,
  ChevronLeftIcon,
  Container,
  errorMessage,
  Input,
  KeyIcon,
  MailIcon,
  notify,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useLocation } from '@cartable/ui/router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { FromState } from '../../../shared/guards';
import { forgotPassword } from '../api/auth';
import { authChecks } from '../checks';
import { useCountdown } from '../hooks/useCountdown';

export const FORGOT_COOLDOWN_S = 60;
export const FORGOT_FALLBACK = "Erreur lors de l'envoi de l'email. Veuillez réessayer.";
export const FORGOT_RESEND_FALLBACK = "Erreur lors du renvoi de l'email";

/** SPEC section 8, forgot password. */
export function forgotErrorMessage(error: unknown, fallback = FORGOT_FALLBACK): string {
  if (error instanceof ApiError) {
    if (error.status === 404) return messages.auth.accountNotFound;
    if (error.status === 429) return messages.tooManyRequests;
  }
  return errorMessage(error, fallback);
}

export default function ForgotPasswordPage() {
  useDocumentTitle('Mot de passe oublié');
  const location = useLocation();
  const state = location.state as FromState | null;
  const {
    register,
    handleSubmit,
    reset,
    setFocus,
    clearErrors,
    watch,
    formState: { errors },
  } = useForm<{ email: string }>({
    defaultValues: { email: state?.email?.trim() ?? '' },
    resolver: authChecks.resolver((checks) => checks.forgotPassword) as never,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const email = watch('email');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const cooldown = useCountdown();

  async function send(address: string, resend: boolean) {
    setSending(true);
    setError(null);
    try {
      await forgotPassword(address);
      notify.success(messages.auth.resetEmailSent);
      setSentTo(address);
      cooldown.start(FORGOT_COOLDOWN_S);
    } catch (failure) {
      const message = forgotErrorMessage(failure, resend ? FORGOT_RESEND_FALLBACK : FORGOT_FALLBACK);
      if (resend) notify.error(message);
      else setError(message);
    } finally {
      setSending(false);
    }
  }

  // The contract's rules (emailRequestSchema); the first one broken shows under the field.
  const onSubmit = handleSubmit((values) => {
    if (sending) return;
    void send(values.email, false);
  });

  function changeEmail() {
    setSentTo(null);
    reset({ email: '' });
    setError(null);
    cooldown.reset();
    requestAnimationFrame(() => setFocus('email'));
  }

  return (
    <Container className="flex justify-center py-8 sm:py-14">
      <div className="w-full max-w-md">
        <Card>
          <CardBody className="space-y-6">
            {sentTo ? (
              <>
                <div className="text-center">
                  <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-primary-50 text-primary-700">
                    <MailIcon size={30} />
                  </span>
                  <h1 className="mt-4 text-2xl font-bold text-slate-900">Vérifiez votre boîte email</h1>
                  <p className="mt-3 text-sm text-slate-600">Un lien de réinitialisation a été envoyé à</p>
                  <p className="mt-1 font-semibold wrap-anywhere text-slate-900" data-testid="sent-to">
                    {sentTo}
                  </p>
                </div>
                <div className="rounded-xl bg-slate-50 p-4">
                  <h2 className="text-sm font-semibold text-slate-900">Prochaines étapes</h2>
                  <ol className="mt-2 space-y-1.5 text-sm text-slate-700">
                    <li>1. Consultez votre boîte de réception (et les courriers indésirables).</li>
                    <li>2. Cliquez sur le lien de l'email : il est valable 60 minutes.</li>
                    <li>3. Créez votre nouveau mot de passe.</li>
                  </ol>
                </div>
                <div className="flex flex-col gap-3">
                  <Button
                    variant="outline"
                    fullWidth
                    loading={sending}
                    disabled={cooldown.left > 0}
                    onClick={() => void send(sentTo, true)}
                  >
                    {cooldown.left > 0 ? `Renvoyer dans ${cooldown.left}s` : "Renvoyer l'email"}
                  </Button>
                  <Button variant="ghost" fullWidth onClick={changeEmail}>
                    Modifier l'email
                  </Button>
                  <Link
                    to="/login"
                    state={{ email: sentTo } satisfies FromState}
                    className={buttonClasses('primary', 'md', 'w-full')}
                  >
                    Retour à la connexion
                  </Link>
                </div>
              </>
            ) : (
              <>
                <div className="text-center">
                  <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
                    <KeyIcon size={26} />
                  </span>
                  <h1 className="mt-4 text-2xl font-bold text-slate-900">Mot de passe oublié ?</h1>
                  <p className="mt-2 text-sm text-slate-600">
                    Indiquez l'adresse de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de
                    passe.
                  </p>
                </div>
                {error ? <Alert tone="error">{error}</Alert> : null}
                <form
                  noValidate
                  onSubmit={onSubmit}
                  {...authChecks.loadOnTouch}
                  className="space-y-4"
                  aria-label="Mot de passe oublié"
                >
                  <Input
                    label="Adresse email"
                    type="email"
                    inputMode="email"
                    autoComplete="email"
                    placeholder="vous@exemple.com"
                    error={errors.email?.message}
                    {...register('email', { onChange: () => clearErrors('email') })}
                  />
                  <Button type="submit" fullWidth size="lg" loading={sending} disabled={!email.trim()}>
                    {sending ? 'Envoi…' : 'Envoyer le lien'}
                  </Button>
                </form>
                <Link
                  to="/login"
                  className="flex items-center justify-center gap-1 text-sm font-medium text-ocean-700 hover:underline"
                >
                  <ChevronLeftIcon size={16} />
                  Retour à la connexion
                </Link>
              </>
            )}
          </CardBody>
        </Card>
      </div>
    </Container>
  );
}

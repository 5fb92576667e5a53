import { messages } from '@cartable/contracts/messages';
import {
  AlertIcon,
  Button,
  buttonClasses,
  Card,
  CardBody,
  CheckCircleIcon,
  Container,
  errorMessage,
  Input,
  notify,
  Spinner,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useNavigate, useSearchParams } from '@cartable/ui/router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { FromState } from '../../../shared/guards';
import { resendVerificationEmail, verifyEmail } from '../api/auth';
import { authChecks } from '../checks';
import { useCountdown } from '../hooks/useCountdown';
import { RESEND_COOLDOWN_S, RESEND_FALLBACK, RESENT } from './RegisterSuccessPage';

export const REDIRECT_AFTER_VERIFY_S = 5;
export const VERIFY_FALLBACK = 'Une erreur est survenue lors de la vérification de votre email.';

type State = { name: 'verifying' } | { name: 'verified'; message: string } | { name: 'failed'; message: string };

/** The link of the verification e-mail: /verify-email?token=…&email=… (SPEC section 2). */
export default function VerifyEmailPage() {
  useDocumentTitle("Vérification de l'email");
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const missing = !token || !email;
  const [state, setState] = useState<State>(() =>
    missing ? { name: 'failed', message: messages.auth.verificationLinkInvalid } : { name: 'verifying' },
  );
  const sent = useRef(false);

  useEffect(() => {
    // The token is single use: one call, whatever re-renders happen.
    if (missing || sent.current) return;
    sent.current = true;
    verifyEmail(token, email).then(
      (response) => setState({ name: 'verified', message: response?.message ?? messages.auth.emailVerified }),
      (error: unknown) => setState({ name: 'failed', message: errorMessage(error, VERIFY_FALLBACK) }),
    );
  }, [missing, token, email]);

  return (
    <Container className="flex justify-center py-8 sm:py-14">
      <div className="w-full max-w-lg">
        <Card>
          <CardBody className="space-y-6 text-center">
            {state.name === 'verifying' ? (
              <div className="flex flex-col items-center gap-4 py-6 text-primary-700" aria-live="polite">
                <Spinner size="lg" label={null} />
                <p className="text-base font-medium text-slate-800">Vérification de votre adresse email…</p>
              </div>
            ) : state.name === 'verified' ? (
              <Verified email={email} message={state.message} />
            ) : (
              <Failed email={email} message={state.message} />
            )}
          </CardBody>
        </Card>
      </div>
    </Container>
  );
}

function Verified({ email, message }: { email: string; message: string }) {
  const navigate = useNavigate();
  const countdown = useCountdown();
  const loginState = { email, message, messageTone: 'success' } satisfies FromState;
  const stateRef = useRef(loginState);

  useEffect(() => {
    countdown.start(REDIRECT_AFTER_VERIFY_S);
    const timer = setTimeout(
      () => navigate('/login', { replace: true, state: stateRef.current }),
      REDIRECT_AFTER_VERIFY_S * 1000,
    );
    return () => clearTimeout(timer);
  }, [countdown.start, navigate]);

  return (
    <>
      <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-primary-50 text-primary-700">
        <CheckCircleIcon size={32} />
      </span>
      <div role="status">
        <h1 className="text-2xl font-bold text-slate-900">Adresse email vérifiée !</h1>
        <p className="mt-3 text-sm text-slate-600">{message}</p>
      </div>
      <p className="text-sm text-slate-600">
        Redirection vers la connexion dans{' '}
        <strong className="tabular-nums" data-testid="redirect-countdown">
          {countdown.left || REDIRECT_AFTER_VERIFY_S}
        </strong>{' '}
        s…
      </p>
      <Link to="/login" replace state={loginState} className={buttonClasses('primary', 'lg', 'w-full sm:w-auto')}>
        Se connecter maintenant
      </Link>
    </>
  );
}

function Failed({ email, message }: { email: string; message: string }) {
  const navigate = useNavigate();
  const [value, setValue] = useState(email);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const cooldown = useCountdown();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = await authChecks.apply((checks) => checks.emailRequest.safeParse({ email: value }));
    if (!parsed) return;
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setSending(true);
    try {
      const response = await resendVerificationEmail(parsed.data);
      notify.success(RESENT);
      cooldown.start(RESEND_COOLDOWN_S);
      navigate('/register-success', {
        state: { email: parsed.data.email, message: response?.message } satisfies FromState,
      });
    } catch (failure) {
      notify.error(errorMessage(failure, RESEND_FALLBACK));
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-red-50 text-red-700">
        <AlertIcon size={30} />
      </span>
      <div role="alert">
        <h1 className="text-2xl font-bold text-slate-900">La vérification a échoué</h1>
        <p className="mt-3 text-sm text-slate-700">{message}</p>
      </div>
      <form
        noValidate
        onSubmit={onSubmit}
        {...authChecks.loadOnTouch}
        className="space-y-4 text-left"
        aria-label="Recevoir un nouveau lien"
      >
        <Input
          label="Adresse email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={value}
          error={error}
          onChange={(event) => {
            setValue(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" fullWidth loading={sending} disabled={!value.trim() || cooldown.left > 0}>
          {cooldown.left > 0 ? `Renvoyer dans ${cooldown.left}s` : 'Recevoir un nouveau lien'}
        </Button>
      </form>
      <p className="text-sm text-slate-600">
        Déjà vérifié ?{' '}
        <Link to="/login" className="font-semibold text-primary-700 hover:underline">
          Se connecter
        </Link>
      </p>
    </>
  );
}

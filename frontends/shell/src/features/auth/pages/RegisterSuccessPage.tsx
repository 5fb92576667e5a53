import { messages } from '@cartable/contracts/messages';
import {
  Alert,
  Button,
  Card,
  CardBody,
  Container,
  errorMessage,
  Input,
  MailIcon,
  notify,
  RefreshIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useLocation, useNavigate } from '@cartable/ui/router';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { FromState } from '../../../shared/guards';
import { checkEmailVerification, resendVerificationEmail } from '../api/auth';
import { authChecks } from '../checks';
import { useCountdown } from '../hooks/useCountdown';

export const VERIFICATION_POLL_MS = 30_000;
export const RESEND_COOLDOWN_S = 60;
export const STATUS_ERROR = "Erreur lors de la vérification du statut de l'email";
export const RESEND_FALLBACK = "Une erreur est survenue lors de l'envoi de l'email de vérification";
export const RESENT = 'Email renvoyé avec succès !';

/** Waits for the e-mail to be verified (SPEC section 2, register-success). */
export default function RegisterSuccessPage() {
  useDocumentTitle('Vérifiez votre adresse email');
  const location = useLocation();
  const state = location.state as FromState | null;
  const [email, setEmail] = useState(state?.email?.trim() ?? '');
  return (
    <Container className="flex justify-center py-8 sm:py-14">
      <div className="w-full max-w-lg">
        {email ? (
          <Waiting
            email={email}
            message={state?.message}
            // Only for the address it was given for (another typed here has none).
            verificationCheck={email === state?.email?.trim() ? state.verificationCheck : undefined}
          />
        ) : (
          <AskEmail onEmail={setEmail} />
        )}
      </div>
    </Container>
  );
}

function Waiting({
  email,
  message,
  verificationCheck,
}: {
  email: string;
  message?: string | undefined;
  verificationCheck?: string | undefined;
}) {
  const navigate = useNavigate();
  const [checking, setChecking] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [resending, setResending] = useState(false);
  const cooldown = useCountdown();
  const inFlight = useRef(false);

  const check = useCallback(
    async (onDemand: boolean) => {
      if (inFlight.current) return;
      inFlight.current = true;
      if (onDemand) setChecking(true);
      try {
        const { verified } = await checkEmailVerification(email, verificationCheck);
        if (verified) {
          navigate('/login', {
            replace: true,
            state: { email, message: messages.auth.emailVerified, messageTone: 'success' } satisfies FromState,
          });
          return;
        }
        if (onDemand) setNotice({ tone: 'info', text: messages.emailNotVerified });
      } catch (error) {
        if (onDemand) setNotice({ tone: 'error', text: errorMessage(error, STATUS_ERROR) });
      } finally {
        inFlight.current = false;
        if (onDemand) setChecking(false);
      }
    },
    [email, navigate, verificationCheck],
  );

  // On arrival, then every 30 s.
  useEffect(() => {
    void check(false);
    const timer = setInterval(() => void check(false), VERIFICATION_POLL_MS);
    return () => clearInterval(timer);
  }, [check]);

  async function resend() {
    setResending(true);
    setNotice(null);
    try {
      await resendVerificationEmail({ email });
      notify.success(RESENT);
      cooldown.start(RESEND_COOLDOWN_S);
      // "Already verified" is a success too: the check moves on to the login page.
      void check(false);
    } catch (error) {
      notify.error(errorMessage(error, RESEND_FALLBACK));
    } finally {
      setResending(false);
    }
  }

  return (
    <Card>
      <CardBody className="space-y-6 text-center">
        <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          <MailIcon size={30} />
        </span>
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Vérifiez votre adresse email</h1>
          <p className="mt-3 text-sm text-slate-600">Nous avons envoyé un lien de confirmation à</p>
          <p className="mt-1 font-semibold wrap-anywhere text-slate-900" data-testid="pending-email">
            {email}
          </p>
        </div>
        {message && !notice ? (
          <Alert tone="info" className="text-left">
            {message}
          </Alert>
        ) : null}
        <ol className="space-y-2 rounded-xl bg-slate-50 p-4 text-left text-sm text-slate-700">
          <li>1. Ouvrez l'email « Confirmez votre adresse email » (pensez aux courriers indésirables).</li>
          <li>2. Cliquez sur « Confirmer mon adresse email ».</li>
          <li>3. Revenez ici : cette page se met à jour toute seule.</li>
        </ol>
        {notice ? (
          <Alert tone={notice.tone} className="text-left">
            {notice.text}
          </Alert>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button onClick={() => void check(true)} loading={checking} leftIcon={<RefreshIcon size={18} />}>
            J'ai vérifié mon email
          </Button>
          <Button variant="outline" onClick={resend} loading={resending} disabled={cooldown.left > 0}>
            {cooldown.left > 0 ? `Renvoyer dans ${cooldown.left}s` : "Renvoyer l'email"}
          </Button>
        </div>
        <p className="text-sm text-slate-600" aria-live="polite">
          {cooldown.left > 0 ? 'Un nouvel email vient de partir : patientez avant d’en demander un autre.' : null}
        </p>
        <p className="text-sm text-slate-600">
          Déjà vérifié ?{' '}
          <Link
            to="/login"
            state={{ email } satisfies FromState}
            className="font-semibold text-primary-700 hover:underline"
          >
            Se connecter
          </Link>
        </p>
      </CardBody>
    </Card>
  );
}

function AskEmail({ onEmail }: { onEmail: (email: string) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = await authChecks.apply((checks) => checks.emailRequest.safeParse({ email: value }));
    if (!parsed) return;
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    onEmail(parsed.data.email);
  }
  return (
    <Card>
      <CardBody className="space-y-5">
        <div className="text-center">
          <h1 className="text-2xl font-bold text-slate-900">Vérifiez votre adresse email</h1>
          <p className="mt-2 text-sm text-slate-600">
            Indiquez l'adresse utilisée à l'inscription pour suivre sa vérification ou recevoir un nouveau lien.
          </p>
        </div>
        <form noValidate onSubmit={onSubmit} {...authChecks.loadOnTouch} className="space-y-4">
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
          <Button type="submit" fullWidth>
            Continuer
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}

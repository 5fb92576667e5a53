import { messages } from '@cartable/contracts/messages';
import { MIN_PASSWORD_SCORE, passwordStrength } from '@cartable/contracts/password';
import {
  Alert,
  AlertIcon,
  ApiError,
  Button,
  buttonClasses,
  Card,
  CardBody,
  Container,
  errorMessage,
  KeyIcon,
  PasswordInput,
  Spinner,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useNavigate, useSearchParams } from '@cartable/ui/router';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { applyServerErrors } from '../../../shared/forms';
import type { FromState } from '../../../shared/guards';
import { PasswordStrength } from '../../../shared/PasswordStrength';
import { resetPassword, validateResetToken } from '../api/auth';
import { authChecks } from '../checks';

export const CHECKING_LINK = 'Vérification du lien...';
export const RESET_FALLBACK = 'Erreur lors de la réinitialisation du mot de passe';

type LinkState = { name: 'checking' } | { name: 'invalid' } | { name: 'valid'; email: string };

interface ResetValues {
  token: string;
  email: string;
  password: string;
  password_confirmation: string;
}

const resolver = authChecks.resolver((checks) => checks.resetPassword);

export default function ResetPasswordPage() {
  useDocumentTitle('Réinitialisation du mot de passe');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const [link, setLink] = useState<LinkState>(() => (token && email ? { name: 'checking' } : { name: 'invalid' }));

  useEffect(() => {
    if (!token || !email) {
      setLink({ name: 'invalid' });
      return;
    }
    const controller = new AbortController();
    setLink({ name: 'checking' });
    validateResetToken(token, email, controller.signal).then(
      (answer) =>
        // A link that no longer works is a 4xx: the failure below.
        setLink({ name: 'valid', email: answer.email }),
      () => {
        if (!controller.signal.aborted) setLink({ name: 'invalid' });
      },
    );
    return () => controller.abort();
  }, [token, email]);

  return (
    <Container className="flex justify-center py-8 sm:py-14">
      <div className="w-full max-w-md">
        <Card>
          <CardBody className="space-y-6">
            {link.name === 'checking' ? (
              <div className="flex flex-col items-center gap-4 py-8 text-primary-700" aria-live="polite">
                <Spinner size="lg" label={null} />
                <p className="text-base font-medium text-slate-800">{CHECKING_LINK}</p>
              </div>
            ) : link.name === 'invalid' ? (
              <InvalidLink />
            ) : (
              <ResetForm token={token} email={link.email} />
            )}
          </CardBody>
        </Card>
      </div>
    </Container>
  );
}

function InvalidLink() {
  return (
    <div className="space-y-5 text-center" role="alert">
      <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-red-50 text-red-700">
        <AlertIcon size={30} />
      </span>
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Lien invalide</h1>
        <p className="mt-2 text-sm text-slate-700">Ce lien de réinitialisation est invalide ou a expiré.</p>
      </div>
      <Link to="/forgot-password" className={buttonClasses('primary', 'lg', 'w-full')}>
        Demander un nouveau lien
      </Link>
      <Link to="/login" className="block text-sm font-medium text-ocean-700 hover:underline">
        Retour à la connexion
      </Link>
    </div>
  );
}

function ResetForm({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({
    defaultValues: { token, email, password: '', password_confirmation: '' },
    mode: 'onSubmit',
    // Typing clears the field's error rather than re-validating it.
    reValidateMode: 'onSubmit',
    resolver: resolver as never,
  });
  const password = watch('password');
  const { score } = passwordStrength(password);

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      const answer = await resetPassword(values);
      navigate('/login', {
        replace: true,
        state: {
          email: values.email,
          message: answer?.message ?? messages.auth.passwordReset,
          messageTone: 'success',
        } satisfies FromState,
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const applied = applyServerErrors(error, setError, ['password', 'password_confirmation']);
        if (applied.length > 0) return;
      }
      if (error instanceof ApiError && error.status === 400) {
        setServerError(messages.auth.resetLinkInvalid);
        return;
      }
      setServerError(errorMessage(error, RESET_FALLBACK));
    }
  });

  const passwordField = register('password', { onChange: () => clearErrors('password') });
  const confirmationField = register('password_confirmation', {
    onChange: () => clearErrors('password_confirmation'),
  });

  return (
    <>
      <div className="text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          <KeyIcon size={26} />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Nouveau mot de passe</h1>
        <p className="mt-2 text-sm text-slate-600">
          Pour le compte <strong className="wrap-anywhere text-slate-900">{email}</strong>
        </p>
      </div>
      {serverError ? (
        <Alert
          tone="error"
          action={
            serverError === messages.auth.resetLinkInvalid ? (
              <Link to="/forgot-password" state={{ email } satisfies FromState} className="font-semibold underline">
                Demander un nouveau lien
              </Link>
            ) : undefined
          }
        >
          {serverError}
        </Alert>
      ) : null}
      <form
        noValidate
        onSubmit={onSubmit}
        {...authChecks.loadOnTouch}
        className="space-y-4"
        aria-label="Réinitialisation"
      >
        <input type="hidden" autoComplete="username" value={email} readOnly />
        <PasswordInput
          label="Nouveau mot de passe"
          autoComplete="new-password"
          error={errors.password?.message}
          {...passwordField}
        />
        <PasswordStrength password={password} />
        <PasswordInput
          label="Confirmer le mot de passe"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...confirmationField}
        />
        <Button type="submit" fullWidth size="lg" loading={isSubmitting} disabled={score < MIN_PASSWORD_SCORE}>
          {isSubmitting ? 'Enregistrement…' : 'Réinitialiser le mot de passe'}
        </Button>
      </form>
    </>
  );
}

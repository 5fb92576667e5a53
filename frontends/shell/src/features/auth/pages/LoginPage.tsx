import type { LoginResponse, TwoFactorChallenge } from '@cartable/contracts';
import { messages } from '@cartable/contracts/messages';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  Container,
  errorMessage,
  Input,
  MailIcon,
  mergeFavouritesAtLogin,
  notify,
  PasswordInput,
  queryKeys,
  ShieldIcon,
  storeLogin,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useLocation, useNavigate } from '@cartable/ui/router';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyServerErrors } from '../../../shared/forms';
import { type FromState, returnPath } from '../../../shared/guards';
import * as authApi from '../api/auth';
import { authChecks } from '../checks';
import type { credentialsSchema } from '../validation';

const m = messages.auth;
export const LOGIN_FALLBACK = 'Erreur lors de la connexion. Veuillez réessayer.';
export const RESEND_CODE_FALLBACK = 'Erreur lors du renvoi du code';

interface LoginValues {
  email: string;
  password: string;
  code: string;
  recovery_code: string;
}

type Step = 'credentials' | 'code' | 'recovery';

type Parsed = z.output<typeof credentialsSchema> & { code?: string; recovery_code?: string };

export default function LoginPage() {
  useDocumentTitle('Connexion');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  const state = location.state as FromState | null;
  const [step, setStep] = useState<Step>('credentials');
  const stepRef = useRef<Step>('credentials');
  stepRef.current = step;
  const [serverError, setServerError] = useState<string | null>(null);
  const [challengeEmail, setChallengeEmail] = useState('');
  const [resending, setResending] = useState(false);

  const form = useForm<LoginValues>({
    defaultValues: { email: state?.email ?? '', password: '', code: '', recovery_code: '' },
    // The schema of the current step decides (credentials, then the code or a recovery code).
    resolver: authChecks.resolver((checks) => checks.login[stepRef.current] as unknown as Resolver<LoginValues>),
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    setFocus,
    formState: { errors, isSubmitting },
  } = form;

  const secondStep = step !== 'credentials';

  function goToVerification(email: string, message: string, verificationCheck?: string) {
    navigate('/register-success', { state: { email, message, verificationCheck } satisfies FromState });
  }

  function switchStep(next: Step) {
    setServerError(null);
    clearErrors();
    setValue('code', '');
    setValue('recovery_code', '');
    setStep(next);
    // Focus follows the change of step (after the new field is rendered).
    requestAnimationFrame(() => {
      if (next === 'code') setFocus('code');
      else if (next === 'recovery') setFocus('recovery_code');
      else setFocus('email');
    });
  }

  const onSubmit = handleSubmit(async (values) => {
    const parsed = values as unknown as Parsed;
    setServerError(null);
    const body: Record<string, string> = { email: parsed.email, password: parsed.password };
    if (step === 'code' && parsed.code) body.code = parsed.code;
    if (step === 'recovery' && parsed.recovery_code) body.recovery_code = parsed.recovery_code;
    try {
      const response = await authApi.login(body);
      if (response.two_factor_required) {
        setChallengeEmail((response as TwoFactorChallenge).email ?? parsed.email);
        if ((response as TwoFactorChallenge).code_sent !== false) notify.success(m.codeSent);
        if (step === 'credentials') switchStep('code');
        return;
      }
      const login = response as LoginResponse;
      if (!storeLogin(login)) {
        // A successful answer without a verified e-mail is not a session.
        if (login.user && login.user.email_verified !== true) goToVerification(parsed.email, messages.emailNotVerified);
        else setServerError(LOGIN_FALLBACK);
        return;
      }
      const back = returnPath(location.state, location.search);
      // The dashboard greets the member by name; a toast there would only hide, at the bottom of a
      // phone's screen, the controls under it. Back on another page, it says the login went through.
      if (back) notify.success(m.loginSuccess);
      // The browser's offline copy of the favourites joins the account's (off the login's path).
      void mergeFavouritesAtLogin()
        .then(() => queryClient.invalidateQueries({ queryKey: queryKeys.favourites.all }))
        .catch(() => {});
      navigate(back ?? '/dashboard', { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        const payload = (error.body ?? {}) as { email_verified?: boolean; email?: string; verification_check?: string };
        if (error.status === 403 && payload.email_verified === false) {
          goToVerification(
            payload.email ?? parsed.email,
            error.hasServerMessage ? error.message : messages.emailNotVerified,
            payload.verification_check,
          );
          return;
        }
        const fields = applyServerErrors(error, setError, ['email', 'password', 'code', 'recovery_code']);
        // Field messages say it all for a wrong code; anything else gets the banner too.
        if (fields.length > 0 && error.status === 422) return;
      }
      setServerError(errorMessage(error, LOGIN_FALLBACK));
    }
  });

  async function resendCode() {
    const email = challengeEmail || form.getValues('email').trim();
    setResending(true);
    setServerError(null);
    try {
      await authApi.resendTwoFactorCode(email, 'login');
      notify.success(m.codeResent);
      setValue('code', '');
      clearErrors('code');
      setFocus('code');
    } catch (error) {
      notify.error(errorMessage(error, RESEND_CODE_FALLBACK));
    } finally {
      setResending(false);
    }
  }

  const codeField = register('code');
  const messageTone = state?.messageTone ?? 'info';

  return (
    <Container className="flex justify-center py-8 sm:py-14">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Connexion</h1>
          <p className="mt-2 text-sm text-slate-600">
            Retrouvez vos annonces, vos messages et vos échanges de manuels.
          </p>
        </div>
        <Card>
          <CardBody className="space-y-5">
            {state?.message && !secondStep ? <Alert tone={messageTone}>{state.message}</Alert> : null}
            {serverError ? <Alert tone="error">{serverError}</Alert> : null}
            <form
              noValidate
              onSubmit={onSubmit}
              {...authChecks.loadOnTouch}
              className="space-y-4"
              aria-label="Connexion"
            >
              <Input
                label="Adresse email"
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder="vous@exemple.com"
                readOnly={secondStep}
                error={errors.email?.message}
                {...register('email')}
              />
              <PasswordInput
                label="Mot de passe"
                autoComplete="current-password"
                readOnly={secondStep}
                error={errors.password?.message}
                {...register('password')}
              />

              {secondStep ? (
                <fieldset className="min-w-0 space-y-4 rounded-xl border border-primary-200 bg-primary-50/60 p-4">
                  <legend className="sr-only">Vérification en deux étapes</legend>
                  <div className="flex gap-3">
                    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary-100 text-primary-800">
                      {step === 'code' ? <MailIcon size={20} /> : <ShieldIcon size={20} />}
                    </span>
                    <div className="text-sm text-slate-700">
                      <p className="font-semibold text-slate-900">Vérification en deux étapes</p>
                      {step === 'code' ? (
                        <p>
                          Saisissez le code à 6 chiffres envoyé à{' '}
                          <strong className="wrap-anywhere">{challengeEmail}</strong>. Il est valable 10 minutes.
                        </p>
                      ) : (
                        <p>
                          Saisissez un des codes de récupération que vous avez conservés. Chaque code ne sert qu'une
                          fois.
                        </p>
                      )}
                    </div>
                  </div>

                  {step === 'code' ? (
                    <Input
                      label="Code de vérification"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      pattern="[0-9]*"
                      placeholder="123456"
                      className="[&_input]:text-center [&_input]:text-lg [&_input]:tracking-[0.4em]"
                      error={errors.code?.message}
                      {...codeField}
                      onChange={(event) => {
                        event.target.value = event.target.value.replace(/\D/g, '').slice(0, 6);
                        return codeField.onChange(event);
                      }}
                    />
                  ) : (
                    <Input
                      label="Code de récupération"
                      autoComplete="off"
                      autoCapitalize="characters"
                      spellCheck={false}
                      placeholder="XXXX-XXXX"
                      error={errors.recovery_code?.message}
                      {...register('recovery_code')}
                    />
                  )}

                  <div className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
                    {step === 'code' ? (
                      <>
                        <Button variant="outline" size="sm" loading={resending} onClick={resendCode}>
                          Renvoyer le code
                        </Button>
                        <button
                          type="button"
                          className="font-medium text-ocean-700 hover:underline"
                          onClick={() => switchStep('recovery')}
                        >
                          Utiliser un code de récupération
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        className="font-medium text-ocean-700 hover:underline"
                        onClick={() => switchStep('code')}
                      >
                        Utiliser le code reçu par email
                      </button>
                    )}
                  </div>
                </fieldset>
              ) : (
                <div className="flex justify-end">
                  <Link
                    to="/forgot-password"
                    state={{ email: form.watch('email').trim() } satisfies FromState}
                    className="text-sm font-medium text-ocean-700 hover:underline"
                  >
                    Mot de passe oublié ?
                  </Link>
                </div>
              )}

              <div className="flex flex-col gap-3 sm:flex-row-reverse">
                <Button type="submit" fullWidth size="lg" className="sm:w-auto sm:flex-1" loading={isSubmitting}>
                  {isSubmitting ? 'Connexion…' : secondStep ? 'Vérifier et se connecter' : 'Se connecter'}
                </Button>
                {secondStep ? (
                  <Button variant="outline" size="lg" className="sm:w-auto" onClick={() => switchStep('credentials')}>
                    Retour
                  </Button>
                ) : null}
              </div>
            </form>
          </CardBody>
        </Card>
        <p className="mt-6 text-center text-sm text-slate-600">
          Pas encore de compte ?{' '}
          <Link to="/register" className="font-semibold text-primary-700 hover:underline">
            Créer un compte
          </Link>
        </p>
      </div>
    </Container>
  );
}

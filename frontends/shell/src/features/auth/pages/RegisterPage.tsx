import { DEFAULT_COUNTRY_ID } from '@cartable/contracts/defaults';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  Container,
  Input,
  NETWORK_ERROR_MESSAGE,
  PasswordInput,
  useCountries,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useNavigate } from '@cartable/ui/router';
import { useEffect, useRef, useState } from 'react';
import { useController, useForm } from 'react-hook-form';
import { applyServerErrors } from '../../../shared/forms';
import { guessCountryCode } from '../../../shared/geolocation';
import type { FromState } from '../../../shared/guards';
import { controlledLocation, LocationFields } from '../../../shared/LocationFields';
import { PasswordStrength } from '../../../shared/PasswordStrength';
import * as authApi from '../api/auth';
import { authChecks } from '../checks';

export const FORM_INVALID = 'Veuillez corriger les erreurs dans le formulaire';
export const SERVER_ERROR = 'Erreur du serveur. Veuillez réessayer plus tard ou contacter le support.';
export const REGISTER_FALLBACK = "Une erreur inattendue s'est produite lors de l'inscription.";

const FIELDS = ['name', 'email', 'username', 'password', 'password_confirmation', 'country_id', 'city_id'] as const;

interface RegisterValues {
  name: string;
  email: string;
  username: string;
  password: string;
  password_confirmation: string;
  country_id: number | null;
  city_id: number | null;
}

const resolver = authChecks.resolver((checks) => checks.register);

/** The message for a failed registration (SPEC section 8, register). */
export function registerErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return NETWORK_ERROR_MESSAGE;
    if (error.status >= 500) return SERVER_ERROR;
    if (error.hasServerMessage) return error.message;
  }
  return REGISTER_FALLBACK;
}

export default function RegisterPage() {
  useDocumentTitle('Inscription');
  const navigate = useNavigate();
  const [serverError, setServerError] = useState<string | null>(null);
  const [emailTaken, setEmailTaken] = useState(false);

  const {
    register,
    handleSubmit,
    control,
    setError,
    setValue,
    watch,
    getFieldState,
    formState: { errors, isSubmitting, submitCount, isSubmitSuccessful },
  } = useForm<RegisterValues, unknown>({
    defaultValues: {
      name: '',
      email: '',
      username: '',
      password: '',
      password_confirmation: '',
      country_id: DEFAULT_COUNTRY_ID,
      city_id: null,
    },
    // Errors appear on the first submit; from then on, fields validate as they change.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: resolver as never,
  });
  const country = useController({ control, name: 'country_id' });
  const city = useController({ control, name: 'city_id' });
  const password = watch('password');

  // Silent country guess: position, then reverse geocoding, mapped on the loaded list.
  const countries = useCountries();
  const [guessedCode, setGuessedCode] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    void guessCountryCode(controller.signal).then((code) => {
      if (!controller.signal.aborted) setGuessedCode(code);
    });
    return () => controller.abort();
  }, []);
  const guessApplied = useRef(false);
  useEffect(() => {
    if (!guessedCode || !countries.data || guessApplied.current) return;
    guessApplied.current = true;
    // Never overrides a choice the visitor already made.
    if (getFieldState('country_id').isDirty) return;
    const match = countries.data.find((entry) => entry.alpha2.toUpperCase() === guessedCode);
    if (match && match.id !== country.field.value) {
      setValue('country_id', match.id);
      setValue('city_id', null);
    }
  }, [guessedCode, countries.data, getFieldState, setValue, country.field.value]);

  const hasErrors = Object.keys(errors).length > 0;
  const showFormError = submitCount > 0 && hasErrors && !isSubmitSuccessful && !serverError;

  const onSubmit = handleSubmit(
    async (values) => {
      setServerError(null);
      setEmailTaken(false);
      try {
        const response = await authApi.register(values);
        const email = (values.email ?? '').trim().toLowerCase();
        // No toast: the next page says the link was sent, and a toast at the bottom of a phone's
        // screen would hide its « Renvoyer l'email ».
        navigate('/register-success', {
          state: { email, verificationCheck: response?.verification_check } satisfies FromState,
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          // E-mail and username are both marked with the server's messages.
          const applied = applyServerErrors(error, setError, ['email', 'username']);
          if (applied.length === 0) {
            setError('email', { type: 'server', message: error.message }, { shouldFocus: true });
            setError('username', { type: 'server', message: error.message });
          }
          setEmailTaken(applied.includes('email') || applied.length === 0);
          return;
        }
        if (error instanceof ApiError && error.status === 422) {
          applyServerErrors(error, setError, FIELDS);
        }
        setServerError(registerErrorMessage(error));
      }
    },
    () => setServerError(null),
  );

  return (
    <Container className="flex justify-center py-8 sm:py-14">
      <div className="w-full max-w-xl">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Créer un compte</h1>
          <p className="mt-2 text-sm text-slate-600">
            Vendez, échangez ou donnez vos manuels scolaires en quelques minutes.
          </p>
        </div>
        <Card>
          <CardBody className="space-y-5">
            {showFormError ? <Alert tone="error">{FORM_INVALID}</Alert> : null}
            {serverError ? <Alert tone="error">{serverError}</Alert> : null}
            <form
              noValidate
              onSubmit={onSubmit}
              {...authChecks.loadOnTouch}
              className="space-y-4"
              aria-label="Inscription"
            >
              <div className="grid gap-4 sm:grid-cols-2">
                <Input
                  label="Nom complet"
                  autoComplete="name"
                  placeholder="Ex. : Awa Nzé"
                  error={errors.name?.message}
                  {...register('name')}
                />
                <Input
                  label="Pseudonyme"
                  autoComplete="username"
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder="Ex. : awa_nze"
                  hint="3 à 20 caractères : lettres, chiffres et _"
                  error={errors.username?.message}
                  {...register('username')}
                />
              </div>
              <div>
                <Input
                  label="Adresse email"
                  type="email"
                  inputMode="email"
                  autoComplete="email"
                  placeholder="vous@exemple.com"
                  error={errors.email?.message}
                  {...register('email')}
                />
                {emailTaken && errors.email ? (
                  <p className="mt-1 text-sm">
                    <Link
                      to="/login"
                      state={{ email: watch('email').trim() } satisfies FromState}
                      className="font-semibold text-ocean-700 underline"
                    >
                      Se connecter
                    </Link>
                  </p>
                ) : null}
              </div>
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="space-y-3">
                  <PasswordInput
                    label="Mot de passe"
                    autoComplete="new-password"
                    hint="8 caractères minimum, avec une minuscule, une majuscule et un chiffre"
                    error={errors.password?.message}
                    {...register('password')}
                  />
                  {password ? <PasswordStrength password={password} showTips={false} /> : null}
                </div>
                <PasswordInput
                  label="Confirmer le mot de passe"
                  autoComplete="new-password"
                  error={errors.password_confirmation?.message}
                  {...register('password_confirmation')}
                />
              </div>
              <LocationFields {...controlledLocation(country, city)} />
              <p className="text-xs text-slate-500">
                En créant un compte, vous confirmez avoir au moins 15 ans et acceptez les{' '}
                <Link to="/terms" className="text-ocean-700 underline">
                  conditions d'utilisation
                </Link>{' '}
                et la{' '}
                <Link to="/privacy" className="text-ocean-700 underline">
                  politique de confidentialité
                </Link>
                .
              </p>
              <Button type="submit" fullWidth size="lg" loading={isSubmitting}>
                {isSubmitting ? 'Création du compte…' : 'Créer mon compte'}
              </Button>
            </form>
          </CardBody>
        </Card>
        <p className="mt-6 text-center text-sm text-slate-600">
          Déjà inscrit ?{' '}
          <Link to="/login" className="font-semibold text-primary-700 hover:underline">
            Se connecter
          </Link>
        </p>
      </div>
    </Container>
  );
}

import {
  Alert,
  ApiError,
  api,
  Button,
  Card,
  CardBody,
  Container,
  errorMessage,
  Input,
  type LoginResponse,
  notify,
  PasswordInput,
  storeLogin,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useLocation, useNavigate } from '@cartable/ui/router';
import { type FormEvent, useRef, useState } from 'react';
import { type FromState, returnPath } from '../guards';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LOGIN_FALLBACK = 'Erreur lors de la connexion. Veuillez réessayer.';
const UNVERIFIED_MESSAGE = "Votre email n'est pas encore vérifié. Veuillez vérifier votre boîte de réception.";

interface Fields {
  email: string;
  password: string;
}
type FieldErrors = Partial<Record<keyof Fields, string>>;

/** SPEC section 5, login rules. */
export function validateLogin({ email, password }: Fields): FieldErrors {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = "L'email est obligatoire";
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = "Format d'email invalide";
  if (!password) errors.password = 'Le mot de passe est obligatoire';
  return errors;
}

export default function LoginPage() {
  useDocumentTitle('Connexion');
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as FromState | null;
  const [fields, setFields] = useState<Fields>({ email: state?.email ?? '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  function update(name: keyof Fields, value: string) {
    const next = { ...fields, [name]: value };
    setFields(next);
    // Live validation once the form has been submitted once.
    if (submitted) setErrors(validateLogin(next));
  }

  function goToVerification(email: string, message: string) {
    navigate('/register-success', { state: { email, message } });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setServerError(null);
    const found = validateLogin(fields);
    setErrors(found);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();

    const email = fields.email.trim();
    setPending(true);
    try {
      const response = await api.post<LoginResponse>('/login', { email, password: fields.password });
      if (response.two_factor_required) {
        setServerError(
          'Un code de vérification est nécessaire pour ce compte. La saisie du code sera bientôt disponible ici.',
        );
        return;
      }
      if (!storeLogin(response)) {
        // A successful answer without a verified e-mail is not a session.
        if (response.user && response.user.email_verified !== true) goToVerification(email, UNVERIFIED_MESSAGE);
        else setServerError(LOGIN_FALLBACK);
        return;
      }
      notify.success('Connexion réussie !');
      navigate(returnPath(location.state, location.search) ?? '/dashboard', { replace: true });
    } catch (error) {
      if (error instanceof ApiError) {
        const body = (error.body ?? {}) as { email_verified?: boolean; email?: string };
        if (body.email_verified === false) {
          goToVerification(body.email ?? email, error.hasServerMessage ? error.message : UNVERIFIED_MESSAGE);
          return;
        }
        const fieldErrors: FieldErrors = {};
        const emailError = error.fieldError('email');
        const passwordError = error.fieldError('password');
        if (emailError) fieldErrors.email = emailError;
        if (passwordError) fieldErrors.password = passwordError;
        if (fieldErrors.email || fieldErrors.password) setErrors(fieldErrors);
      }
      setServerError(errorMessage(error, LOGIN_FALLBACK));
    } finally {
      setPending(false);
    }
  }

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
            {state?.message ? <Alert tone="info">{state.message}</Alert> : null}
            {serverError ? <Alert tone="error">{serverError}</Alert> : null}
            <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Connexion">
              <Input
                ref={emailRef}
                label="Adresse email"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                placeholder="vous@exemple.com"
                value={fields.email}
                error={errors.email}
                onChange={(event) => update('email', event.target.value)}
              />
              <PasswordInput
                ref={passwordRef}
                label="Mot de passe"
                name="password"
                autoComplete="current-password"
                value={fields.password}
                error={errors.password}
                onChange={(event) => update('password', event.target.value)}
              />
              <div className="flex justify-end">
                <Link
                  to="/forgot-password"
                  state={{ email: fields.email.trim() }}
                  className="text-sm font-medium text-ocean-700 hover:underline"
                >
                  Mot de passe oublié ?
                </Link>
              </div>
              <Button type="submit" fullWidth size="lg" loading={pending}>
                {pending ? 'Connexion…' : 'Se connecter'}
              </Button>
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

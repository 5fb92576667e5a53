import { messages } from '@cartable/contracts/messages';
import { MIN_PASSWORD_SCORE, passwordStrength } from '@cartable/contracts/password';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  CardHeader,
  errorMessage,
  notify,
  PasswordInput,
  sessionStore,
} from '@cartable/ui';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { applyServerErrors } from '../../../shared/forms';
import { PasswordStrength } from '../../../shared/PasswordStrength';
import { changePassword } from '../api/profile';
import { accountChecks } from './checks';

export const CHANGE_PASSWORD_FALLBACK = 'Erreur lors de la modification du mot de passe';

interface PasswordValues {
  current_password: string;
  password: string;
  password_confirmation: string;
}

const EMPTY: PasswordValues = { current_password: '', password: '', password_confirmation: '' };
const resolver = accountChecks.resolver((checks) => checks.changePassword);

/** PUT /user/change-password; the answer's new token replaces the session's (older ones are revoked). */
export function PasswordCard({ email }: { email: string }) {
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<PasswordValues>({
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    resolver: resolver as never,
  });
  const password = watch('password');
  const { score } = passwordStrength(password);

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      const answer = await changePassword(values);
      const { user } = sessionStore.getState();
      // Stay signed in: the new token is the only one still accepted.
      if (answer?.access_token && user) sessionStore.setSession(answer.access_token, user);
      reset(EMPTY);
      notify.success(answer?.message ?? messages.auth.passwordChanged);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const applied = applyServerErrors(error, setError, ['current_password', 'password', 'password_confirmation']);
        if (applied.length > 0) return;
      }
      setServerError(errorMessage(error, CHANGE_PASSWORD_FALLBACK));
    }
  });

  return (
    <Card id="mot-de-passe" className="scroll-mt-20">
      <CardHeader>
        <h2 className="text-lg font-semibold text-slate-900">Mot de passe</h2>
        <p className="text-sm text-slate-600">Vos autres appareils devront se reconnecter après le changement.</p>
      </CardHeader>
      <CardBody>
        <form
          {...accountChecks.loadOnTouch}
          noValidate
          onSubmit={onSubmit}
          className="space-y-4"
          aria-label="Changer le mot de passe"
        >
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          <input type="hidden" autoComplete="username" value={email} readOnly />
          <PasswordInput
            label="Mot de passe actuel"
            autoComplete="current-password"
            error={errors.current_password?.message}
            {...register('current_password')}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <PasswordInput
              label="Nouveau mot de passe"
              autoComplete="new-password"
              error={errors.password?.message}
              {...register('password')}
            />
            <PasswordInput
              label="Confirmer le nouveau mot de passe"
              autoComplete="new-password"
              error={errors.password_confirmation?.message}
              {...register('password_confirmation')}
            />
          </div>
          <PasswordStrength password={password} />
          <div className="flex flex-col sm:flex-row sm:justify-end">
            <Button type="submit" loading={isSubmitting} disabled={score < MIN_PASSWORD_SCORE}>
              Changer le mot de passe
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

import type { Profile } from '@cartable/contracts';
import { messages } from '@cartable/contracts/messages';
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  errorMessage,
  Input,
  notify,
  PasswordInput,
  ShieldIcon,
} from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { issuesByField } from '../../../shared/forms';
import { profileKey, TWO_FACTOR_ERRORS, twoFactor } from '../api/profile';
import { accountChecks } from './checks';
import { RecoveryCodesDialog } from './RecoveryCodesDialog';

type Mode = 'idle' | 'confirming' | 'disabling' | 'regenerating';
type Errors = Partial<Record<'code' | 'password', string>>;

/** Digits only, at most 6 (SPEC section 5). */
export function CodeInput({
  value,
  onChange,
  error,
  label = 'Code de vérification',
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  label?: string;
}) {
  return (
    <Input
      label={label}
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      placeholder="123456"
      value={value}
      error={error}
      className="[&_input]:text-center [&_input]:text-lg [&_input]:tracking-[0.4em]"
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 6))}
    />
  );
}

function fieldErrors(error: unknown): Errors {
  if (!(error instanceof ApiError)) return {};
  const found: Errors = {};
  const code = error.fieldError('code');
  const password = error.fieldError('password');
  if (code) found.code = code;
  if (password) found.password = password;
  return found;
}

/** Two-factor sign-in by e-mailed code: turn on, turn off, new recovery codes (API.md "Two-factor"). */
export function TwoFactorCard({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('idle');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState<'enable' | 'confirm' | 'disable' | 'resend' | 'regenerate' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const enabled = profile.two_factor_enabled;

  function changeMode(next: Mode) {
    setMode(next);
    setCode('');
    setPassword('');
    setErrors({});
    setFailure(null);
  }

  const refresh = () => queryClient.invalidateQueries({ queryKey: profileKey });

  async function run<T>(kind: NonNullable<typeof pending>, call: () => Promise<T>, fallback: string) {
    setPending(kind);
    setFailure(null);
    try {
      return await call();
    } catch (error) {
      const found = fieldErrors(error);
      setErrors(found);
      if (!found.code && !found.password) setFailure(errorMessage(error, fallback));
      return undefined;
    } finally {
      setPending(null);
    }
  }

  async function enable() {
    const answer = await run('enable', twoFactor.enable, TWO_FACTOR_ERRORS.enable);
    if (answer === undefined) return;
    changeMode('confirming');
    notify.success(answer?.message ?? messages.auth.codeSent);
  }

  async function resend(type: 'enable' | 'disable') {
    setPending('resend');
    try {
      const answer = await twoFactor.resend(profile.email, type);
      notify.success(type === 'enable' ? messages.auth.codeResent : (answer?.message ?? messages.auth.codeSent));
    } catch (error) {
      notify.error(errorMessage(error, TWO_FACTOR_ERRORS.resend));
    } finally {
      setPending(null);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    const parsed = await accountChecks.apply((checks) => checks.twoFactorConfirm.safeParse({ code }));
    if (!parsed) return;
    if (!parsed.success) return setErrors(issuesByField(parsed.error.issues));
    setErrors({});
    const answer = await run('confirm', () => twoFactor.confirm(parsed.data), TWO_FACTOR_ERRORS.confirm);
    if (answer === undefined) return;
    changeMode('idle');
    notify.success(answer?.message ?? messages.auth.twoFactorEnabled);
    if (answer?.recovery_codes?.length) setCodes(answer.recovery_codes);
    await refresh();
  }

  async function disable(event: FormEvent) {
    event.preventDefault();
    const parsed = await accountChecks.apply((checks) =>
      checks.twoFactorDisable.safeParse({ password, code: code || undefined }),
    );
    if (!parsed) return;
    if (!parsed.success) return setErrors(issuesByField(parsed.error.issues));
    setErrors({});
    const answer = await run('disable', () => twoFactor.disable(parsed.data), TWO_FACTOR_ERRORS.disable);
    if (answer === undefined) return;
    changeMode('idle');
    notify.success(answer?.message ?? messages.auth.twoFactorDisabled);
    await refresh();
  }

  async function regenerate(event: FormEvent) {
    event.preventDefault();
    const parsed = await accountChecks.apply((checks) => checks.passwordOnly.safeParse({ password }));
    if (!parsed) return;
    if (!parsed.success) return setErrors(issuesByField(parsed.error.issues));
    setErrors({});
    const answer = await run('regenerate', () => twoFactor.regenerateCodes(parsed.data), TWO_FACTOR_ERRORS.regenerate);
    if (answer === undefined) return;
    changeMode('idle');
    notify.success(answer?.message ?? messages.auth.recoveryCodesRegenerated);
    if (answer?.recovery_codes?.length) setCodes(answer.recovery_codes);
    await refresh();
  }

  let body: ReactNode;
  if (mode === 'confirming') {
    body = (
      <form
        {...accountChecks.loadOnTouch}
        noValidate
        onSubmit={confirm}
        className="space-y-4"
        aria-label="Confirmer l'activation"
      >
        <Alert tone="info">
          Un code à 6 chiffres vient d'être envoyé à <strong>{profile.email}</strong>. Saisissez-le pour activer la
          vérification en deux étapes.
        </Alert>
        <CodeInput value={code} onChange={setCode} error={errors.code} />
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={() => changeMode('idle')}>
            Annuler
          </Button>
          <Button variant="outline" loading={pending === 'resend'} onClick={() => void resend('enable')}>
            Renvoyer le code
          </Button>
          <Button type="submit" loading={pending === 'confirm'}>
            Confirmer l'activation
          </Button>
        </div>
      </form>
    );
  } else if (mode === 'disabling') {
    body = (
      <form
        {...accountChecks.loadOnTouch}
        noValidate
        onSubmit={disable}
        className="space-y-4"
        aria-label="Désactiver la vérification en deux étapes"
      >
        <p className="text-sm text-slate-700">
          Confirmez avec votre mot de passe et, si vous le souhaitez, un code reçu par email.
        </p>
        <PasswordInput
          label="Mot de passe"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="space-y-2">
          <CodeInput value={code} onChange={setCode} error={errors.code} label="Code reçu par email (facultatif)" />
          <Button size="sm" variant="outline" loading={pending === 'resend'} onClick={() => void resend('disable')}>
            M'envoyer un code
          </Button>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={() => changeMode('idle')}>
            Annuler
          </Button>
          <Button type="submit" variant="danger" loading={pending === 'disable'}>
            Désactiver
          </Button>
        </div>
      </form>
    );
  } else if (mode === 'regenerating') {
    body = (
      <form
        {...accountChecks.loadOnTouch}
        noValidate
        onSubmit={regenerate}
        className="space-y-4"
        aria-label="Générer de nouveaux codes de récupération"
      >
        <Alert tone="warning">Les codes actuels cesseront de fonctionner dès que les nouveaux seront générés.</Alert>
        <PasswordInput
          label="Mot de passe"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={() => changeMode('idle')}>
            Annuler
          </Button>
          <Button type="submit" loading={pending === 'regenerate'}>
            Générer de nouveaux codes
          </Button>
        </div>
      </form>
    );
  } else if (enabled) {
    body = (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          À chaque connexion, un code à 6 chiffres est envoyé à <strong>{profile.email}</strong>. Il vous reste{' '}
          <strong>{profile.recovery_codes_left}</strong> code{profile.recovery_codes_left > 1 ? 's' : ''} de
          récupération.
        </p>
        {profile.recovery_codes_left <= 2 ? (
          <Alert tone="warning">Il vous reste peu de codes de récupération : pensez à en générer de nouveaux.</Alert>
        ) : null}
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => changeMode('regenerating')}>
            Nouveaux codes de récupération
          </Button>
          <Button variant="danger" onClick={() => changeMode('disabling')}>
            Désactiver
          </Button>
        </div>
      </div>
    );
  } else {
    body = (
      <div className="space-y-4">
        <p className="text-sm text-slate-700">
          Protégez votre compte : en plus du mot de passe, un code à 6 chiffres envoyé par email vous sera demandé à
          chaque connexion.
        </p>
        <div className="flex flex-col sm:flex-row sm:justify-end">
          <Button loading={pending === 'enable'} onClick={enable} leftIcon={<ShieldIcon size={18} />}>
            Activer la vérification
          </Button>
        </div>
      </div>
    );
  }

  return (
    <Card id="securite" className="scroll-mt-20">
      <CardHeader className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Vérification en deux étapes</h2>
          <p className="text-sm text-slate-600">Un code envoyé par email à chaque connexion.</p>
        </div>
        <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? 'Activée' : 'Désactivée'}</Badge>
      </CardHeader>
      <CardBody className="space-y-4">
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        {body}
      </CardBody>
      {codes ? <RecoveryCodesDialog codes={codes} email={profile.email} onClose={() => setCodes(null)} /> : null}
    </Card>
  );
}

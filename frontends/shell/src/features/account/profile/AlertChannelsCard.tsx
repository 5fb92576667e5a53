import type { AlertChannelsResponse, PhoneResponse } from '@cartable/contracts';
import {
  type AlertChannelName,
  type AlertKind,
  alertChannelLabels,
  alertChannelNames,
  alertKindLabels,
  alertKinds,
  fixedAlertChannels,
} from '@cartable/contracts/alert-kinds';
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  CardBody,
  CardHeader,
  Checkbox,
  errorMessage,
  Input,
  LoadFailed,
  notify,
  Skeleton,
  useSession,
} from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { alertChannelsQuery, alertPhone, useAlertChannels, useSaveAlertChannels } from '../api/alert-channels';
import { CodeInput } from './TwoFactorCard';

type Step = 'idle' | 'number' | 'code';

/**
 * « Alertes par SMS » in the member's settings: a phone verified by a code sent by SMS (enter the
 * number, then the code; change or remove it), and for each kind of alert its channels: e-mail,
 * SMS, in Cartable. Each box saves at once; SMS needs a verified number.
 */
export function AlertChannelsCard() {
  const { user } = useSession();
  const userId = user?.id ?? '';
  const client = useQueryClient();
  const query = useAlertChannels(userId);
  const save = useSaveAlertChannels(userId, {
    onSuccess: (answer) => notify.success(answer.message ?? 'Canaux d’alerte enregistrés'),
    onError: (error) => notify.error(errorMessage(error, 'Impossible d’enregistrer vos choix.')),
  });
  const settings = query.data;

  /** A phone call's answer replaces the phone in the cached settings. */
  const phoneChanged = (answer: PhoneResponse) => {
    client.setQueryData<AlertChannelsResponse>(alertChannelsQuery(userId).queryKey, (old) =>
      old ? { ...old, phone: answer.phone } : old,
    );
    void client.invalidateQueries({ queryKey: alertChannelsQuery(userId).queryKey });
  };

  return (
    <Card>
      <CardHeader>
        <h2 id="alertes-sms" className="text-lg font-semibold text-slate-900">
          Alertes par SMS
        </h2>
        <p className="text-sm text-slate-600">
          Recevez les alertes qui comptent par SMS, même sans connexion Internet.
        </p>
      </CardHeader>
      <CardBody className="space-y-6">
        {query.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : query.isError || !settings ? (
          <LoadFailed title="Impossible de charger vos alertes par SMS." query={query} />
        ) : (
          <>
            <PhoneSection settings={settings} onChanged={phoneChanged} />
            <fieldset className="space-y-3">
              <legend className="text-sm font-semibold text-slate-900">Comment être prévenu</legend>
              <p className="text-xs text-slate-600">
                {settings.sms_per_day} SMS par jour au plus
                {settings.quiet_hours
                  ? ` ; aucun SMS entre ${settings.quiet_hours.from.replace(':', 'h')} et ${settings.quiet_hours.to.replace(':', 'h')} (ils partent le matin)`
                  : ''}
                . Répondez STOP pour ne plus en recevoir.
              </p>
              {alertKinds.map((kind) => (
                <KindChoices
                  key={kind}
                  kind={kind}
                  choice={settings.channels[kind]}
                  smsPossible={Boolean(settings.phone.number) && !settings.phone.stopped}
                  disabled={save.isPending}
                  onChange={(channel, on) => save.mutate({ [kind]: { [channel]: on } })}
                />
              ))}
            </fieldset>
          </>
        )}
      </CardBody>
    </Card>
  );
}

function KindChoices({
  kind,
  choice,
  smsPossible,
  disabled,
  onChange,
}: {
  kind: AlertKind;
  choice: Record<AlertChannelName, boolean>;
  smsPossible: boolean;
  disabled: boolean;
  onChange: (channel: AlertChannelName, on: boolean) => void;
}) {
  const { label, hint } = alertKindLabels[kind];
  const hintId = `alert-kind-${kind}-hint`;
  return (
    <fieldset aria-describedby={hintId} className="rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-sm font-medium text-slate-900">{label}</legend>
      <p id={hintId} className="text-xs text-slate-600">
        {hint}
      </p>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {alertChannelNames.map((channel) => {
          const fixed = fixedAlertChannels[kind]?.includes(channel) ?? false;
          const off = disabled || fixed || (channel === 'sms' && !choice.sms && !smsPossible);
          return (
            <Checkbox
              key={channel}
              label={alertChannelLabels[channel]}
              checked={fixed || choice[channel]}
              disabled={off}
              onChange={(event) => onChange(channel, event.currentTarget.checked)}
            />
          );
        })}
      </div>
    </fieldset>
  );
}

function PhoneSection({
  settings,
  onChanged,
}: {
  settings: AlertChannelsResponse;
  onChanged: (answer: PhoneResponse) => void;
}) {
  const phone = settings.phone;
  const [step, setStep] = useState<Step>(phone.pending && !phone.number ? 'code' : 'idle');
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ field: 'number' | 'code' | null; message: string } | null>(null);
  const [busy, setBusy] = useState<'send' | 'verify' | 'remove' | null>(null);

  async function run(kind: NonNullable<typeof busy>, field: 'number' | 'code', call: () => Promise<PhoneResponse>) {
    setBusy(kind);
    setError(null);
    try {
      const answer = await call();
      onChanged(answer);
      notify.success(answer.message);
      return answer;
    } catch (failure) {
      const onField = failure instanceof ApiError ? failure.fieldError(field) : undefined;
      setError({
        field: onField ? field : null,
        message: onField ?? errorMessage(failure, 'Une erreur est survenue. Réessayez.'),
      });
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  async function send(event: FormEvent) {
    event.preventDefault();
    if (!number.trim()) {
      setError({ field: 'number', message: 'Saisissez votre numéro de mobile.' });
      return;
    }
    if (await run('send', 'number', () => alertPhone.requestCode(number))) {
      setCode('');
      setStep('code');
    }
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    if (code.length !== 6) {
      setError({ field: 'code', message: 'Le code est fait de 6 chiffres.' });
      return;
    }
    if (await run('verify', 'code', () => alertPhone.verify(code))) {
      setStep('idle');
      setNumber('');
    }
  }

  const cancel = () => {
    setStep('idle');
    setError(null);
  };

  return (
    <section aria-labelledby="alert-phone-title" className="space-y-3">
      <h3 id="alert-phone-title" className="text-sm font-semibold text-slate-900">
        Mon numéro pour les SMS
      </h3>
      {phone.number && step === 'idle' ? (
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-base font-medium text-slate-900">{phone.display}</span>
          {phone.stopped ? <Badge tone="accent">SMS arrêtés (STOP)</Badge> : <Badge tone="success">Vérifié</Badge>}
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setStep('number')}>
              {phone.stopped ? 'Réactiver ou changer' : 'Changer de numéro'}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              loading={busy === 'remove'}
              onClick={() => void run('remove', 'number', alertPhone.remove)}
            >
              Supprimer
            </Button>
          </div>
        </div>
      ) : null}
      {!phone.number && step === 'idle' ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-600">Aucun numéro : les alertes arrivent par e-mail et dans Cartable.</p>
          <Button size="sm" onClick={() => setStep('number')}>
            Ajouter un numéro
          </Button>
        </div>
      ) : null}
      {step === 'number' ? (
        <form onSubmit={send} noValidate className="space-y-3">
          <Input
            label="Numéro de mobile"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="077 12 34 56"
            hint="Airtel ou Moov ; un numéro d’un autre pays commence par + et son indicatif."
            value={number}
            error={error?.field === 'number' ? error.message : undefined}
            onChange={(event) => setNumber(event.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={busy === 'send'}>
              Recevoir un code par SMS
            </Button>
            <Button type="button" variant="ghost" onClick={cancel}>
              Annuler
            </Button>
          </div>
        </form>
      ) : null}
      {step === 'code' ? (
        <form onSubmit={verify} noValidate className="space-y-3">
          <p className="text-sm text-slate-700" aria-live="polite">
            Code envoyé au <strong>{phone.pending ?? 'numéro saisi'}</strong> ; il expire dans 10 minutes.
          </p>
          <CodeInput value={code} onChange={setCode} error={error?.field === 'code' ? error.message : undefined} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={busy === 'verify'}>
              Vérifier
            </Button>
            <Button type="button" variant="outline" onClick={() => setStep('number')}>
              Renvoyer un code ou changer de numéro
            </Button>
            <Button type="button" variant="ghost" onClick={cancel}>
              Annuler
            </Button>
          </div>
        </form>
      ) : null}
      {error && error.field === null ? <Alert tone="error">{error.message}</Alert> : null}
    </section>
  );
}

import {
  type ManualDeclarationRequest,
  manualDeclarationRequestSchema,
  type PaymentChoice,
  paymentChoiceSchema,
  subscriptionMessages,
} from '@cartable/contracts';
import { mobileMoneyOperators, operatorLabels, paymentProviderLabels } from '@cartable/contracts/labels';
import {
  ApiError,
  Button,
  CheckCircleIcon,
  ClockIcon,
  CopyIcon,
  cn,
  errorMessage,
  formatPrice,
  Input,
  notify,
  PhoneIcon,
  Spinner,
  useSubmissionKey,
} from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { Link } from '@cartable/ui/router';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import {
  type Payment,
  type PaymentInstructions,
  type Plan,
  plansQuery,
  type SubscriptionCheckoutResponse,
  subscriptionQuery,
  useCheckout,
  useDeclarePayment,
} from './api/subscriptions';
import { days } from './labels';

type PendingPayment = Pick<Payment, 'id' | 'amount' | 'reference' | 'operator' | 'provider'>;

export interface CheckoutDialogProps {
  open: boolean;
  onClose: () => void;
  plan: Pick<Plan, 'id' | 'name' | 'price' | 'duration_days' | 'kind'>;
  /** The listing a boost puts « À la une ». */
  book?: { id: number; title: string };
  /** Renewing this subscription (POST /subscriptions/{id}/renew). */
  renewOf?: string;
  /** A payment already started: open on its declaration (from the subscription's page). */
  resume?: { subscriptionId: string; payment: PendingPayment };
}

/** The aggregator asks for the phone; a manual payment takes it at the declaration. */
const choiceSchema = paymentChoiceSchema.superRefine((value, ctx) => {
  if (value.provider !== 'manual' && !value.payer_phone) {
    ctx.addIssue({ code: 'custom', path: ['payer_phone'], message: subscriptionMessages.phoneInvalid });
  }
});
const zodChoice = zodResolver(choiceSchema);
/** An empty phone field is no phone (the schema's optional), not an invalid one. */
const choiceResolver: typeof zodChoice = (values, context, options) =>
  zodChoice({ ...values, payer_phone: values.payer_phone?.trim() || undefined }, context, options);
const declarationResolver = zodResolver(manualDeclarationRequestSchema);

type Step =
  | { name: 'choose' }
  | { name: 'pay'; subscriptionId: string; payment: PendingPayment; instructions: PaymentInstructions | null }
  | { name: 'submitted'; subscriptionId: string; message: string }
  | { name: 'active'; subscriptionId: string }
  | { name: 'failed'; subscriptionId: string; reason: string };

/**
 * Checkout of a plan, a boost or a renewal in one dialog: the operator and the way to pay, then
 * what to do (merchant number, amount, reference, steps), then the declaration of a manual payment
 * (operator, the SMS's transaction reference, phone) or the wait for the aggregator's confirmation.
 */
export default function CheckoutDialog({ open, onClose, plan, book, renewOf, resume }: CheckoutDialogProps) {
  const initial: Step = resume
    ? { name: 'pay', subscriptionId: resume.subscriptionId, payment: resume.payment, instructions: null }
    : { name: 'choose' };
  const [step, setStep] = useState<Step>(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh start each time it opens
  useEffect(() => {
    if (open) setStep(initial);
  }, [open]);

  const title = renewOf
    ? `Renouveler « ${plan.name} »`
    : plan.kind === 'boost'
      ? 'Mettre en avant mon annonce'
      : `S’abonner : ${plan.name}`;
  const busyClose = () => onClose();

  return (
    <Dialog
      open={open}
      onClose={busyClose}
      title={title}
      description={
        <>
          {plan.price === 0 ? 'Gratuit' : formatPrice(plan.price)} pour {days(plan.duration_days)}
          {book ? <> · « {book.title} »</> : null}
        </>
      }
      size="md"
    >
      {step.name === 'choose' ? (
        <ChooseStep
          plan={plan}
          book={book}
          renewOf={renewOf}
          onCancel={onClose}
          onStarted={(answer) =>
            setStep({
              name: 'pay',
              subscriptionId: answer.subscription.id,
              payment: answer.payment,
              instructions: answer.instructions,
            })
          }
        />
      ) : step.name === 'pay' ? (
        <PayStep
          step={step}
          onSubmitted={(message) => setStep({ name: 'submitted', subscriptionId: step.subscriptionId, message })}
          onActive={() => setStep({ name: 'active', subscriptionId: step.subscriptionId })}
          onFailed={(reason) => setStep({ name: 'failed', subscriptionId: step.subscriptionId, reason })}
        />
      ) : step.name === 'submitted' ? (
        <Outcome
          icon={<ClockIcon size={28} />}
          tone="ocean"
          title="Paiement déclaré"
          text={`${step.message} Vous recevrez un e-mail dès qu’il sera validé ; votre mise en avant commence à ce moment.`}
          subscriptionId={step.subscriptionId}
          onClose={onClose}
        />
      ) : step.name === 'active' ? (
        <Outcome
          icon={<CheckCircleIcon size={28} />}
          tone="primary"
          title="Paiement confirmé"
          text="Votre abonnement est actif."
          subscriptionId={step.subscriptionId}
          onClose={onClose}
        />
      ) : (
        <Outcome
          icon={<PhoneIcon size={28} />}
          tone="danger"
          title="Paiement non abouti"
          text={`${step.reason} Vous pouvez réessayer depuis la page de l’abonnement.`}
          subscriptionId={step.subscriptionId}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

function RadioCards<T extends string>({
  legend,
  name,
  options,
  value,
  field,
}: {
  legend: string;
  name: string;
  options: Array<[T, string, string?]>;
  value: string | undefined;
  field: UseFormRegisterReturn;
}) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid grid-cols-2 gap-2" data-name={name}>
        {options.map(([option, label, hint]) => (
          <label
            key={option}
            className={cn(
              'flex min-h-11 cursor-pointer flex-col justify-center rounded-xl border p-2 text-center text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary-300',
              value === option ? 'border-primary-700 bg-primary-50 text-primary-900' : 'border-slate-300 bg-white',
            )}
          >
            <input type="radio" value={option} className="sr-only" {...field} />
            <span className="font-semibold">{label}</span>
            {hint ? <span className="text-xs text-slate-500">{hint}</span> : null}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function ChooseStep({
  plan,
  book,
  renewOf,
  onCancel,
  onStarted,
}: {
  plan: CheckoutDialogProps['plan'];
  book?: CheckoutDialogProps['book'];
  renewOf?: string;
  onCancel: () => void;
  onStarted: (answer: SubscriptionCheckoutResponse) => void;
}) {
  const formId = useId();
  const submission = useSubmissionKey();
  const checkout = useCheckout();
  const providers = useQuery(plansQuery()).data?.providers ?? [{ name: 'manual', label: 'Déclaration manuelle' }];
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<PaymentChoice>({
    resolver: choiceResolver,
    defaultValues: { provider: 'manual', operator: 'airtel_money', payer_phone: '' },
  });
  const provider = watch('provider');
  const operator = watch('operator');

  const submit = handleSubmit((values) => {
    const choice: PaymentChoice = {
      provider: values.provider,
      operator: values.operator,
      ...(values.payer_phone ? { payer_phone: values.payer_phone } : {}),
    };
    checkout.mutate(
      { renewOf, plan_id: plan.id, book_id: book?.id, choice, key: submission.current() },
      {
        onSuccess: (answer) => {
          submission.renew();
          onStarted(answer);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            for (const field of ['operator', 'provider', 'payer_phone'] as const) {
              const message = error.fieldError(field);
              if (message) setError(field, { type: 'server', message });
            }
          } else if (!(error instanceof ApiError && error.isNetworkError)) submission.renew();
          void notify.error(errorMessage(error, 'Le paiement n’a pas pu être préparé. Veuillez réessayer.'));
        },
      },
    );
  });

  return (
    <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-4 pb-1">
      <RadioCards
        legend="Payer avec"
        name="operator"
        value={operator}
        options={mobileMoneyOperators.map((o) => [o, operatorLabels[o]])}
        field={register('operator')}
      />
      {errors.operator?.message ? <p className="text-sm text-red-700">{errors.operator.message}</p> : null}
      {providers.length > 1 ? (
        <RadioCards
          legend="Comment payer"
          name="provider"
          value={provider}
          options={providers.map((p) => [
            p.name,
            p.label || paymentProviderLabels[p.name] || p.name,
            p.name === 'manual' ? 'Je paie puis je déclare' : 'Demande sur mon téléphone',
          ])}
          field={register('provider')}
        />
      ) : (
        <input type="hidden" value="manual" {...register('provider')} />
      )}
      <Input
        label={provider === 'manual' ? 'Votre numéro (facultatif)' : 'Numéro qui paiera'}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="077 12 34 56"
        error={errors.payer_phone?.message}
        hint={
          provider === 'manual'
            ? 'Vous pourrez aussi l’indiquer en déclarant le paiement.'
            : 'La demande de paiement arrive sur ce téléphone.'
        }
        {...register('payer_phone')}
      />
      <p className="rounded-xl bg-slate-50 p-3 text-xs text-slate-600">
        Aucune commission n’est prise sur vos ventes : l’abonnement n’achète que de la visibilité.
      </p>
      <div className="grid grid-cols-2 gap-2 pt-1 pb-4 sm:flex sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={checkout.isPending}>
          Annuler
        </Button>
        <Button type="submit" loading={checkout.isPending}>
          Continuer
        </Button>
      </div>
    </form>
  );
}

function CopyValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-2 rounded-lg bg-white px-3 py-2">
      <div className="min-w-0">
        <dt className="text-xs text-slate-500">{label}</dt>
        <dd className="font-mono text-base font-semibold break-all text-slate-900" data-testid={`pay-${label}`}>
          {value}
        </dd>
      </div>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Copier : ${label}`}
        onClick={() =>
          void navigator.clipboard
            ?.writeText(value)
            .then(() => notify.success(`${label} copié`))
            .catch(() => undefined)
        }
      >
        <CopyIcon size={18} />
      </Button>
    </div>
  );
}

function PayStep({
  step,
  onSubmitted,
  onActive,
  onFailed,
}: {
  step: Extract<Step, { name: 'pay' }>;
  onSubmitted: (message: string) => void;
  onActive: () => void;
  onFailed: (reason: string) => void;
}) {
  const { payment, instructions } = step;
  const manual = payment.provider === 'manual';
  return (
    <div className="space-y-4 pb-5">
      <section aria-labelledby="pay-how" className="rounded-xl border border-primary-200 bg-primary-50 p-3">
        <h3 id="pay-how" className="text-sm font-semibold text-primary-900">
          {manual ? `Payez par ${operatorLabels[payment.operator]}` : 'Confirmez sur votre téléphone'}
        </h3>
        <dl className="mt-2 space-y-2">
          <CopyValue label="Montant" value={formatPrice(payment.amount)} />
          {instructions?.merchant_number ? (
            <CopyValue
              label={`Numéro marchand${instructions.merchant_name ? ` (${instructions.merchant_name})` : ''}`}
              value={instructions.merchant_number}
            />
          ) : null}
          <CopyValue label="Référence" value={payment.reference} />
        </dl>
        {instructions?.steps.length ? (
          <ol className="mt-3 list-decimal space-y-1 pl-5 text-sm text-slate-800">
            {instructions.steps.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ol>
        ) : null}
      </section>
      {manual ? (
        <DeclarationForm payment={payment} onSubmitted={onSubmitted} />
      ) : (
        <AggregatorWait
          subscriptionId={step.subscriptionId}
          paymentId={payment.id}
          onActive={onActive}
          onFailed={onFailed}
        />
      )}
    </div>
  );
}

function DeclarationForm({
  payment,
  onSubmitted,
}: {
  payment: Pick<Payment, 'id' | 'operator'>;
  onSubmitted: (message: string) => void;
}) {
  const declare = useDeclarePayment();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<ManualDeclarationRequest>({
    resolver: declarationResolver,
    defaultValues: { operator: payment.operator, transaction_reference: '', payer_phone: '' },
  });
  const operator = watch('operator');
  const submit = handleSubmit((values) => {
    declare.mutate(
      {
        paymentId: payment.id,
        body: values as { operator: string; transaction_reference: string; payer_phone: string },
      },
      {
        onSuccess: (answer) => onSubmitted(answer.message ?? subscriptionMessages.submitted),
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) {
            for (const field of ['operator', 'transaction_reference', 'payer_phone'] as const) {
              const message = error.fieldError(field);
              if (message) setError(field, { type: 'server', message });
            }
          }
          void notify.error(errorMessage(error, 'La déclaration n’a pas pu être envoyée. Veuillez réessayer.'));
        },
      },
    );
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="space-y-4" aria-labelledby="declare-title">
      <div>
        <h3 id="declare-title" className="text-base font-semibold text-slate-900">
          J’ai payé : déclarer le paiement
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          Recopiez la référence de transaction du SMS de confirmation. Un administrateur la vérifie, en général dans la
          journée.
        </p>
      </div>
      <RadioCards
        legend="Opérateur utilisé"
        name="declare-operator"
        value={operator}
        options={mobileMoneyOperators.map((o) => [o, operatorLabels[o]])}
        field={register('operator')}
      />
      <Input
        label="Référence de la transaction (SMS)"
        autoComplete="off"
        autoCapitalize="characters"
        placeholder="ex. : MP240612.1234.A56789"
        error={errors.transaction_reference?.message}
        {...register('transaction_reference')}
      />
      <Input
        label="Numéro qui a payé"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="077 12 34 56"
        error={errors.payer_phone?.message}
        {...register('payer_phone')}
      />
      <Button type="submit" className="w-full" loading={declare.isPending}>
        Déclarer mon paiement
      </Button>
    </form>
  );
}

const POLL_MS = 3_000;

function AggregatorWait({
  subscriptionId,
  paymentId,
  onActive,
  onFailed,
}: {
  subscriptionId: string;
  paymentId: string;
  onActive: () => void;
  onFailed: (reason: string) => void;
}) {
  const subscription = useQuery({
    ...subscriptionQuery(subscriptionId),
    refetchInterval: (query) => (query.state.data?.status === 'pending_payment' || !query.state.data ? POLL_MS : false),
  });
  const data = subscription.data;
  const payment = data?.payments.find((p) => p.id === paymentId);
  useEffect(() => {
    if (data?.status === 'active' && (!payment || payment.status === 'paid')) onActive();
    else if (payment && (payment.status === 'failed' || payment.status === 'expired'))
      onFailed(payment.failure_reason ?? 'Le paiement a été refusé ou a expiré.');
  }, [data?.status, payment, onActive, onFailed]);
  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 text-sm text-slate-700"
    >
      <Spinner size="sm" label="" />
      <span>
        En attente de la confirmation de l’opérateur… Validez la demande reçue sur votre téléphone avec votre code
        secret. Cette fenêtre se met à jour toute seule.
      </span>
    </div>
  );
}

function Outcome({
  icon,
  tone,
  title,
  text,
  subscriptionId,
  onClose,
}: {
  icon: ReactNode;
  tone: 'primary' | 'ocean' | 'danger';
  title: string;
  text: string;
  subscriptionId: string;
  onClose: () => void;
}) {
  const tones = {
    primary: 'bg-primary-100 text-primary-800',
    ocean: 'bg-ocean-100 text-ocean-800',
    danger: 'bg-red-100 text-red-800',
  };
  return (
    <div className="pb-5 text-center" role="status">
      <span className={cn('mx-auto flex h-14 w-14 items-center justify-center rounded-full', tones[tone])}>{icon}</span>
      <p className="mt-3 text-lg font-semibold text-slate-900">{title}</p>
      <p className="mt-1 text-sm text-slate-700">{text}</p>
      <div className="mt-5 grid gap-2 sm:grid-cols-2">
        <Link
          to={`/subscription/details/${subscriptionId}`}
          className="inline-flex h-11 items-center justify-center rounded-lg bg-primary-700 px-4 text-sm font-semibold text-white hover:bg-primary-800"
          onClick={onClose}
        >
          Voir l’abonnement
        </Link>
        <Button variant="outline" onClick={onClose}>
          Fermer
        </Button>
      </div>
    </div>
  );
}

import { type PaymentChoice, paymentChoiceSchema, subscriptionMessages } from '@cartable/contracts';
import { mobileMoneyOperators, operatorLabels, paymentProviderLabels } from '@cartable/contracts/labels';
import { ApiError, Button, errorMessage, Input, notify, useSubmissionKey } from '@cartable/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { plansQuery, type SubscriptionCheckoutResponse, useCheckout } from '../api/subscriptions';
import { RadioCards } from './RadioCards';
import type { CheckoutPlan } from './steps';

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

/**
 * A way to pay's name without the operators it takes (« eBilling (Airtel Money, Moov Money) »):
 * the operator is chosen just above, and four names fit two cards a row at 360 px only short.
 */
const shortProviderLabel = (label: string) => label.replace(/\s*\((?:Airtel|Moov)[^)]*\)\s*$/, '');

/** The first step: the operator, the way to pay (when the aggregator is on) and the phone. */
export function ChooseStep({
  plan,
  book,
  renewOf,
  onCancel,
  onStarted,
}: {
  plan: CheckoutPlan;
  book?: { id: number; title: string };
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
            shortProviderLabel(p.label || paymentProviderLabels[p.name] || p.name),
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

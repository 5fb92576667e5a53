import {
  type ManualDeclarationRequest,
  manualDeclarationRequestSchema,
  subscriptionMessages,
} from '@cartable/contracts';
import { mobileMoneyOperators, operatorLabels } from '@cartable/contracts/labels';
import { ApiError, Button, errorMessage, Input, notify } from '@cartable/ui';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { type Payment, useDeclarePayment } from '../api/subscriptions';
import { RadioCards } from './RadioCards';

const declarationResolver = zodResolver(manualDeclarationRequestSchema);

/** « J’ai payé » : the operator, the SMS's transaction reference and the phone that paid. */
export function DeclarationForm({
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

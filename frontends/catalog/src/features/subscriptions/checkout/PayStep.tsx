import { operatorLabels } from '@cartable/contracts/labels';
import { Button, CopyIcon, formatPrice, notify } from '@cartable/ui';
import { AggregatorWait } from './AggregatorWait';
import { DeclarationForm } from './DeclarationForm';
import type { Step } from './steps';

/** A value to type on the phone (the amount, the merchant number, the reference), with « Copier ». */
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

/**
 * What to pay and how (amount, merchant number, reference, the operator's steps), then the
 * declaration of a manual payment or the wait for the aggregator's confirmation.
 */
export function PayStep({
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

import { CheckCircleIcon, ClockIcon, formatPrice, PhoneIcon } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { useEffect, useState } from 'react';
import { ChooseStep } from './checkout/ChooseStep';
import { Outcome } from './checkout/Outcome';
import { PayStep } from './checkout/PayStep';
import type { CheckoutPlan, PendingPayment, Step } from './checkout/steps';
import { days, refusalSentence } from './labels';

export interface CheckoutDialogProps {
  open: boolean;
  onClose: () => void;
  plan: CheckoutPlan;
  /** The listing a boost puts « À la une ». */
  book?: { id: number; title: string };
  /** Renewing this subscription (POST /subscriptions/{id}/renew). */
  renewOf?: string;
  /** With renewOf: paying again for a subscription whose payment was refused or expired. */
  retry?: boolean;
  /** A payment already started: open on its declaration (from the subscription's page). */
  resume?: { subscriptionId: string; payment: PendingPayment };
}

/**
 * Checkout of a plan, a boost or a renewal in one dialog: the operator and the way to pay, then
 * what to do (merchant number, amount, reference, steps), then the declaration of a manual payment
 * (operator, the SMS's transaction reference, phone) or the wait for the aggregator's confirmation.
 */
export default function CheckoutDialog({ open, onClose, plan, book, renewOf, retry, resume }: CheckoutDialogProps) {
  const initial: Step = resume
    ? { name: 'pay', subscriptionId: resume.subscriptionId, payment: resume.payment, instructions: null }
    : { name: 'choose' };
  const [step, setStep] = useState<Step>(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh start each time it opens
  useEffect(() => {
    if (open) setStep(initial);
  }, [open]);

  const title = retry
    ? `Payer à nouveau : ${plan.name}`
    : renewOf
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
          text={`${refusalSentence(step.reason)} Rien n’a été débité : vous pouvez payer à nouveau, avec le même numéro ou un autre.`}
          subscriptionId={step.subscriptionId}
          linkLabel="Réessayer le paiement"
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

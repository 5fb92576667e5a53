import type { EventData } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { members, notices } from '../db/schema.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';
import type { SubscriptionMail, SubscriptionMailEvent } from '../templates/subscriptions.ts';

const noticeTitles: Record<SubscriptionMailEvent, string> = {
  activated: 'Abonnement actif',
  renewed: 'Abonnement renouvelé',
  extended: 'Abonnement prolongé',
  expiring: 'Abonnement bientôt terminé',
  expired: 'Abonnement terminé',
  cancelled: 'Abonnement annulé',
  refunded: 'Abonnement remboursé',
  payment_failed: 'Paiement non abouti',
  payment_expired: 'Paiement expiré',
};

/**
 * The member hears of every change of their subscription by e-mail and in the notice centre:
 * activation, renewal, the reminder 3 days before the end, the end, an operator's cancel,
 * extension or refund, a payment that failed or expired. Transactional: not subject to the
 * alert preferences; an SMS too when the member chose it for « Paiements ». The mail's id is the
 * event's, so a redelivered event sends nothing twice.
 */
async function tell(tx: Db, eventId: string, userId: string, mail: Omit<SubscriptionMail, 'name'>) {
  const [member] = await tx.select().from(members).where(eq(members.id, userId));
  await tx
    .insert(notices)
    .values({
      key: `${eventId}:${userId}`,
      userId,
      type: `subscription.${mail.event}`,
      title: noticeTitles[mail.event],
      body: `${mail.planName}${mail.endsAt && mail.event !== 'expired' ? ` · jusqu’au ${new Date(mail.endsAt).toLocaleDateString('fr-FR', { timeZone: 'Africa/Libreville' })}` : ''}`,
      link: `/subscription/details/${mail.subscriptionId}`,
    })
    .onConflictDoNothing();
  if (!member) return;
  await recordAlertSms(tx, `${eventId}-sms`, {
    userId,
    kind: 'payments',
    message: {
      template: 'payment-news',
      data: {
        event: mail.event,
        title: noticeTitles[mail.event],
        planName: mail.planName,
        subscriptionId: mail.subscriptionId,
      },
    },
  });
  await recordMail(tx, eventId, { template: 'subscription', to: member.email, data: { name: member.name, ...mail } });
}

const fromSubscription =
  (event: SubscriptionMailEvent) =>
  (tx: Db, { id, data }: { id: string; data: EventData<'catalog.subscription.activated'> }) =>
    tell(tx, id, data.user_id, {
      event,
      subscriptionId: data.subscription_id,
      planName: data.plan_name,
      endsAt: data.ends_at,
      bookTitles: data.book_titles,
      reason: data.reason,
      amount: null,
    });

const fromPayment =
  (event: SubscriptionMailEvent) =>
  (tx: Db, { id, data }: { id: string; data: EventData<'catalog.payment.paid'> }) =>
    tell(tx, id, data.user_id, {
      event,
      subscriptionId: data.subscription_id,
      planName: data.plan_name,
      endsAt: null,
      bookTitles: [],
      reason: data.reason,
      amount: event === 'refunded' ? (data.refund_amount ?? data.amount) : data.amount,
    });

export const subscriptionMails: EventHandlers = {
  'catalog.subscription.activated': fromSubscription('activated'),
  'catalog.subscription.renewed': fromSubscription('renewed'),
  'catalog.subscription.extended': fromSubscription('extended'),
  'catalog.subscription.expiring': fromSubscription('expiring'),
  'catalog.subscription.expired': fromSubscription('expired'),
  'catalog.subscription.cancelled': fromSubscription('cancelled'),
  // The refund's mail comes from catalog.payment.refunded, which carries the amount.
  'catalog.payment.refunded': fromPayment('refunded'),
  'catalog.payment.failed': fromPayment('payment_failed'),
  'catalog.payment.expired': fromPayment('payment_expired'),
};

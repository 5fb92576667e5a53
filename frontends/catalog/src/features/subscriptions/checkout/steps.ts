import type { Payment, PaymentInstructions, Plan } from '../api/subscriptions';

/** What the checkout buys: a plan, a boost or a renewal, as its price and its length. */
export type CheckoutPlan = Pick<Plan, 'id' | 'name' | 'price' | 'duration_days' | 'kind'>;

/** A payment under way: what the pay step shows and the declaration refers to. */
export type PendingPayment = Pick<Payment, 'id' | 'amount' | 'reference' | 'operator' | 'provider'>;

/** The checkout's steps: the choice, the payment, then one of its three outcomes. */
export type Step =
  | { name: 'choose' }
  | { name: 'pay'; subscriptionId: string; payment: PendingPayment; instructions: PaymentInstructions | null }
  | { name: 'submitted'; subscriptionId: string; message: string }
  | { name: 'active'; subscriptionId: string }
  | { name: 'failed'; subscriptionId: string; reason: string };

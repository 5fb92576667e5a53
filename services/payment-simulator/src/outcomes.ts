/**
 * What the payer does, chosen by the last four digits of their number, as in a sandbox. Shared by
 * the eBilling and MyPVit protocols (the original protocol knows only 0000 and 9999):
 *
 * - 0000: refused (« Solde insuffisant »);
 * - 9999: never answers the push (the request expires);
 * - 1111: confirms, but the create call is answered only after `slowMs` (the merchant times out);
 * - 2222: the operator's answer is lost: the state reads ambiguous once, then paid;
 * - 3333: lets the request expire at the end of the confirmation delay;
 * - 4444: takes their time: confirms after three times `confirmDelayMs`;
 * - anything else: confirms after `confirmDelayMs`.
 */
export type PayerOutcome = 'paid' | 'failed' | 'never' | 'slow' | 'ambiguous' | 'expires' | 'late';

export function payerOutcome(msisdn: string): PayerOutcome {
  const digits = msisdn.replace(/\D/g, '');
  if (digits.endsWith('0000')) return 'failed';
  if (digits.endsWith('9999')) return 'never';
  if (digits.endsWith('1111')) return 'slow';
  if (digits.endsWith('2222')) return 'ambiguous';
  if (digits.endsWith('3333')) return 'expires';
  if (digits.endsWith('4444')) return 'late';
  return 'paid';
}

/** How long the payer takes to answer the push on their phone. */
export function answerDelayMs(msisdn: string, ctx: Pick<SimulatorContext, 'confirmDelayMs'>): number {
  return payerOutcome(msisdn) === 'late' ? ctx.confirmDelayMs * 3 : ctx.confirmDelayMs;
}

/** What a protocol needs of the server it is mounted on. */
export interface SimulatorContext {
  /** Runs later unless the server is closing (every timer is cleared on close). */
  later(ms: number, run: () => void): void;
  confirmDelayMs: number;
  slowMs: number;
  retryBaseMs: number;
  maxAttempts: number;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

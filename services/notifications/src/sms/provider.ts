/**
 * What notifications needs of an SMS aggregator: send one SMS under our id, and read what it
 * posts back (delivery reports, members' replies). One adapter per protocol (infobip.ts);
 * services/payment-simulator speaks the same protocol in development and tests, so the adapter
 * itself is what runs against it.
 */
export interface OutgoingSmsRequest {
  /** Our id: the aggregator echoes it in its delivery reports. */
  id: string;
  /** E.164. */
  to: string;
  text: string;
}

export interface DeliveryReport {
  id: string;
  status: 'delivered' | 'failed';
  error: string | null;
}

export interface InboundSms {
  id: string;
  /** E.164. */
  from: string;
  text: string;
}

export interface SmsProvider {
  readonly name: string;
  /** Resolves with the aggregator's id once it has accepted the SMS; throws SmsSendError otherwise. */
  send(sms: OutgoingSmsRequest): Promise<{ providerId: string }>;
  /** Whether a webhook's request comes from the aggregator. */
  authenticWebhook(headers: Record<string, string | string[] | undefined>): boolean;
  deliveryReports(body: unknown): DeliveryReport[];
  /**
   * Whether the aggregator holds an SMS of this id (its logs): asked before sending again after a
   * send that got no answer, which it may have taken all the same.
   */
  accepted(id: string): Promise<{ providerId: string } | null>;
  inboundMessages(body: unknown): InboundSms[];
}

/** The start of a failed send's error when the aggregator did not answer (it may have taken the SMS). */
export const NO_ANSWER = 'no answer from the aggregator';

/** `permanent`: no retry will change the answer (a refused number, our own request wrong). */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed webhooks (payment aggregators → catalog): header `t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>">`, the scheme Stripe and most aggregators use. The timestamp is signed too,
 * so an old delivery cannot be replayed with a fresh date; the receiver refuses one outside its
 * tolerance and de-duplicates the rest by event id.
 */
export function signWebhook(secret: string, rawBody: string | Buffer, timestamp = Math.floor(Date.now() / 1000)) {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export type WebhookSignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'missing' | 'malformed' | 'signature' | 'stale' };

export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Buffer,
  header: string | string[] | undefined,
  { toleranceSeconds, now = Date.now() }: { toleranceSeconds: number; now?: number },
): WebhookSignatureCheck {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return { ok: false, reason: 'missing' };
  const parts = new Map(
    value.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get('t');
  const given = parts.get('v1');
  if (!t || !/^\d{1,12}$/.test(t) || !given || !/^[0-9a-f]{64}$/i.test(given))
    return { ok: false, reason: 'malformed' };
  const timestamp = Number(t);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // Compared in constant time: a byte-by-byte comparison would tell an attacker how much was right.
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return { ok: false, reason: 'signature' };
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return { ok: false, reason: 'stale' };
  return { ok: true, timestamp };
}

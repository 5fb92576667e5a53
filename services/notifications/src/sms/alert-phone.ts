import { createHash, randomInt } from 'node:crypto';
import {
  type AlertPhone,
  alertChannelMessages as m,
  PHONE_CODE_MAX_ATTEMPTS,
  PHONE_CODE_RESEND_SECONDS,
  PHONE_CODE_TTL_MINUTES,
  PHONE_CODES_PER_MEMBER_PER_DAY,
  PHONE_CODES_PER_NUMBER_PER_DAY,
  trustMessages,
} from '@cartable/contracts';
import { type Db, notFound, tooManyRequests, unprocessable } from '@cartable/service-kit';
import { and, desc, eq, gt, isNull, ne, notInArray, sql } from 'drizzle-orm';
import { alertPhones, members, outgoingSms, phoneCodes } from '../db/schema.ts';
import { recordSms, SERVICE_SMS_KINDS } from './outgoing-sms.ts';
import { displayPhone, normalisePhone } from './phone-numbers.ts';

/**
 * A member's alert phone, verified by a 6-digit code sent to it by SMS (the e-mailed codes' rules:
 * 10 minutes, single use, burnt after 5 wrong tries, only a hash at rest), with limits so that the
 * form cannot be used to flood a number: a minute between two codes of a member, 5 codes a day to
 * a number whoever asks, 8 a day asked by a member.
 *
 * Asking for a code answers the same whether the number is free or verified on another account, so
 * the form tells nobody who is a member: whoever types the code received on the number holds it
 * now (numbers are recycled), and the number moves to their account.
 */

const DAY_MS = 24 * 3600_000;
const codeHash = (userId: string, phone: string, code: string) =>
  createHash('sha256').update(`${userId}:${phone}:${code}`).digest('hex');

export async function phoneOf(db: Db, userId: string, now = new Date()): Promise<AlertPhone> {
  const [[phone], [pending]] = await Promise.all([
    db.select().from(alertPhones).where(eq(alertPhones.userId, userId)),
    db
      .select({ phone: phoneCodes.phone })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt), gt(phoneCodes.expiresAt, now)))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1),
  ]);
  return {
    number: phone?.phone ?? null,
    display: phone ? displayPhone(phone.phone) : null,
    verified_at: phone?.verifiedAt.toISOString() ?? null,
    stopped: Boolean(phone?.stoppedAt),
    pending: pending ? displayPhone(pending.phone) : null,
  };
}

async function requireMember(db: Db, userId: string) {
  const [member] = await db.select({ id: members.id }).from(members).where(eq(members.id, userId));
  if (!member) throw notFound(trustMessages.memberNotFound);
}

/** Sends a code to the number typed, within the limits. */
export async function requestPhoneCode(db: Db, userId: string, typed: string, now = new Date()) {
  const checked = normalisePhone(typed);
  if (!checked.ok) {
    const message = checked.reason === 'not_mobile' ? m.phoneNotMobile : m.phoneInvalid;
    throw unprocessable({ number: [message] }, message);
  }
  await requireMember(db, userId);
  const phone = checked.e164;
  await db.transaction(async (tx) => {
    // One request at a time per member and per number: the counts below then hold.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`phone-code:${userId}`}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`phone-code:${phone}`}))`);
    const [mine] = await tx.select().from(alertPhones).where(eq(alertPhones.userId, userId));
    if (mine?.phone === phone && !mine.stoppedAt) throw unprocessable({ number: [m.phoneSame] }, m.phoneSame);
    const since = new Date(now.getTime() - DAY_MS);
    const [last] = await tx
      .select({ createdAt: phoneCodes.createdAt })
      .from(phoneCodes)
      .where(eq(phoneCodes.userId, userId))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    const waited = last ? (now.getTime() - last.createdAt.getTime()) / 1000 : Number.POSITIVE_INFINITY;
    if (waited < PHONE_CODE_RESEND_SECONDS)
      throw tooManyRequests(m.codeWait, Math.ceil(PHONE_CODE_RESEND_SECONDS - waited));
    const [[byMember], [byNumber]] = await Promise.all([
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(phoneCodes)
        .where(and(eq(phoneCodes.userId, userId), gt(phoneCodes.createdAt, since))),
      tx
        .select({ n: sql<number>`count(*)::int` })
        .from(phoneCodes)
        .where(and(eq(phoneCodes.phone, phone), gt(phoneCodes.createdAt, since))),
    ]);
    if ((byMember?.n ?? 0) >= PHONE_CODES_PER_MEMBER_PER_DAY) throw tooManyRequests(m.tooManyCodesMember, 3600);
    if ((byNumber?.n ?? 0) >= PHONE_CODES_PER_NUMBER_PER_DAY) throw tooManyRequests(m.tooManyCodesNumber, 3600);
    // A new code replaces the member's earlier ones.
    await tx
      .update(phoneCodes)
      .set({ usedAt: now })
      .where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt)));
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const [row] = await tx
      .insert(phoneCodes)
      .values({
        userId,
        phone,
        codeHash: codeHash(userId, phone, code),
        expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MINUTES * 60_000),
        createdAt: now,
      })
      .returning({ id: phoneCodes.id });
    await recordSms(tx, `code-${row!.id}`, {
      userId,
      phone,
      kind: 'verification',
      message: { template: 'phone-code', data: { code } },
    });
  });
  return { message: m.codeSent, phone: await phoneOf(db, userId, now) };
}

type CodeCheck = 'ok' | 'invalid' | 'too_many' | 'none';

/** Checks the member's live code; a right one makes its number the member's alert phone. */
export async function verifyPhoneCode(db: Db, userId: string, code: string, now = new Date()) {
  // The count of wrong tries is committed even though the answer is a refusal.
  const result = await db.transaction(async (tx): Promise<CodeCheck> => {
    const [row] = await tx
      .select()
      .from(phoneCodes)
      .where(and(eq(phoneCodes.userId, userId), isNull(phoneCodes.usedAt), gt(phoneCodes.expiresAt, now)))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1)
      .for('update');
    if (!row) return 'none';
    if (row.codeHash !== codeHash(userId, row.phone, code)) {
      const attempts = row.attempts + 1;
      const burnt = attempts >= PHONE_CODE_MAX_ATTEMPTS;
      await tx
        .update(phoneCodes)
        .set({ attempts, ...(burnt ? { usedAt: now } : {}) })
        .where(eq(phoneCodes.id, row.id));
      return burnt ? 'too_many' : 'invalid';
    }
    await tx.update(phoneCodes).set({ usedAt: now }).where(eq(phoneCodes.id, row.id));
    // Whoever had this number before (a recycled SIM) loses it; so does this member's old number.
    await tx.delete(alertPhones).where(and(eq(alertPhones.phone, row.phone), ne(alertPhones.userId, userId)));
    await tx
      .insert(alertPhones)
      .values({ userId, phone: row.phone, verifiedAt: now })
      .onConflictDoUpdate({ target: alertPhones.userId, set: { phone: row.phone, verifiedAt: now, stoppedAt: null } });
    return 'ok';
  });
  if (result !== 'ok') {
    const message = result === 'too_many' ? m.codeTooManyAttempts : result === 'none' ? m.codeExpired : m.codeInvalid;
    throw unprocessable({ code: [message] }, message);
  }
  return { message: m.phoneVerified, phone: await phoneOf(db, userId, now) };
}

/** The member removes their number: no SMS any more, those waiting are cancelled. */
export async function removePhone(db: Db, userId: string) {
  await db.transaction(async (tx) => {
    await tx.delete(alertPhones).where(eq(alertPhones.userId, userId));
    await tx
      .update(outgoingSms)
      .set({ status: 'cancelled', doneAt: new Date() })
      .where(
        and(eq(outgoingSms.userId, userId), eq(outgoingSms.status, 'pending'), ne(outgoingSms.kind, 'verification')),
      );
  });
  return { message: m.phoneRemoved, phone: await phoneOf(db, userId) };
}

const STOP_WORDS = new Set(['STOP', 'STOP SMS', 'ARRET', 'ARRETER', 'STOPSMS', 'DESABONNER']);

/** « STOP » (or ARRET…) from a number: SMS off for it, and one SMS to confirm. Keyed by the inbound id. */
export async function inboundSms(db: Db, sms: { id: string; from: string; text: string }, now = new Date()) {
  const word = sms.text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toUpperCase()
    .replace(/[^A-Z ]/g, '')
    .replace(/\s+/g, ' ');
  if (!STOP_WORDS.has(word)) return 'ignored' as const;
  const checked = normalisePhone(sms.from);
  if (!checked.ok) return 'ignored' as const;
  return db.transaction(async (tx) => {
    const [phone] = await tx
      .update(alertPhones)
      .set({ stoppedAt: sql`coalesce(${alertPhones.stoppedAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(alertPhones.phone, checked.e164))
      .returning();
    if (!phone) return 'unknown' as const;
    await tx
      .update(outgoingSms)
      .set({ status: 'cancelled', doneAt: now })
      .where(
        and(
          eq(outgoingSms.phone, phone.phone),
          eq(outgoingSms.status, 'pending'),
          notInArray(outgoingSms.kind, [...SERVICE_SMS_KINDS]),
        ),
      );
    await recordSms(tx, `stop-${sms.id}`, {
      userId: phone.userId,
      phone: phone.phone,
      kind: 'stop',
      message: { template: 'stop-confirmed', data: {} },
    });
    return 'stopped' as const;
  });
}

/** Housekeeping: codes are kept two days, the limits' memory (24 hours) and a margin. */
export async function deleteOldPhoneCodes(db: Db): Promise<number> {
  const deleted = await db
    .delete(phoneCodes)
    .where(sql`${phoneCodes.createdAt} < now() - interval '2 days'`)
    .returning({ id: phoneCodes.id });
  return deleted.length;
}

import { randomUUID } from 'node:crypto';
import type { Envelope } from '@cartable/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notices, outgoingMails, outgoingSms, schoolYearReminders } from '../src/db/schema.ts';
import { memberAddresses } from '../src/events/message-mails.ts';
import { sendSchoolYearReminders } from '../src/events/school-year-reminders.ts';
import { type Mail, render } from '../src/queue/mail-queue.ts';
import { normalisePhone } from '../src/sms/phone-numbers.ts';
import { SMS_MAX } from '../src/sms/texts.ts';
import { type SmsHarness, smsHarness } from './sms-harness.ts';

let h: SmsHarness;
// Noon in Libreville (outside the SMS quiet hours): December is « garder », June « vendre »,
// August « acheter ».
const DECEMBER = new Date('2026-12-07T11:00:00Z');
const JUNE = new Date('2027-06-15T11:00:00Z');
const AUGUST = new Date('2027-08-16T11:00:00Z');

type Member = { sub: string; token: string };
let mailer: Member;
let texter: Member & { number: string };
let undecided: Member;
let deactivated: Member;

beforeAll(async () => {
  h = await smsHarness();
  mailer = await h.member('Mireille');
  undecided = await h.member('Ulrich');
  deactivated = await h.member('Ghislain');
  texter = { ...(await h.member('Awa')), number: (normalisePhone('077 51 00 01') as { e164: string }).e164 };
  expect((await h.call('POST', '/notifications/phone', texter, { number: texter.number })).status).toBe(200);
  const code = await h.until(async () =>
    (await h.inbox(texter.number)).map((m) => /code est (\d{6})/.exec(m.text)?.[1]).find(Boolean),
  );
  expect((await h.call('POST', '/notifications/phone/verify', texter, { code })).status).toBe(200);
  const chose = async (who: Member, school_year: Record<string, boolean>) =>
    expect((await h.call('PUT', '/notifications/channels', who, { school_year })).status).toBe(200);
  await chose(mailer, { email: true, in_app: true });
  await chose(texter, { sms: true, in_app: false });
  // Ghislain chose e-mail too, then an administrator deactivated him.
  await chose(deactivated, { email: true });
  const event = {
    id: randomUUID(),
    type: 'auth.user.deactivated',
    occurred_at: new Date().toISOString(),
    data: { user_id: deactivated.sub, deactivated_at: new Date().toISOString(), version: 3 },
  } as Envelope<'auth.user.deactivated'>;
  await h.db.transaction((tx) => memberAddresses['auth.user.deactivated']!(tx, event as never));
});
afterAll(() => h?.close());

const mailsOf = (who: Member) =>
  h.db
    .select()
    .from(outgoingMails)
    .where(
      and(
        eq(outgoingMails.template, 'school-year-reminder'),
        eq(outgoingMails.recipient, `${who.sub.slice(0, 8)}@example.ga`),
      ),
    );
const noticesOf = (who: Member) => h.db.select().from(notices).where(eq(notices.userId, who.sub));
const reminderSmsOf = (who: Member) =>
  h.db
    .select()
    .from(outgoingSms)
    .where(and(eq(outgoingSms.userId, who.sub), eq(outgoingSms.template, 'school-year-reminder')));

describe('school year reminders', () => {
  it('answers the school year channel with its defaults: in-app on, e-mail and SMS off', async () => {
    const read = await h.call('GET', '/notifications/channels', undecided);
    expect(read.body.channels.school_year).toEqual({ email: false, sms: false, in_app: true });
    expect((await h.call('GET', '/notifications/channels', mailer)).body.channels.school_year).toEqual({
      email: true,
      sms: false,
      in_app: true,
    });
  });

  it('reminds nobody while the year runs (« garder », December)', async () => {
    expect(await sendSchoolYearReminders(h.db, DECEMBER)).toBe(0);
    expect(await h.db.select().from(schoolYearReminders)).toEqual([]);
    expect(await h.db.select().from(notices)).toEqual([]);
  });

  it('in June, reminds each active member once by the channels they chose, even with two runs at once', async () => {
    // Two replicas at the same moment, in batches of two members: three members are active.
    const runs = await Promise.all([sendSchoolYearReminders(h.db, JUNE, 2), sendSchoolYearReminders(h.db, JUNE, 2)]);
    expect(runs[0]! + runs[1]!).toBe(3);

    const [mail] = await mailsOf(mailer);
    expect(await mailsOf(mailer)).toHaveLength(1);
    const rendered = render({ template: mail!.template, data: mail!.data } as Mail, 'https://cartable.ga');
    expect(rendered.text).toContain('les familles les cherchent en juin et juillet');
    expect(rendered.text).toContain('https://cartable.ga/ma-liste/vendre');
    expect(rendered.headers?.['List-Unsubscribe']).toContain('kind=school_year');
    expect(await noticesOf(mailer)).toMatchObject([{ type: 'school_year.vendre', link: '/ma-liste/vendre' }]);
    expect(await reminderSmsOf(mailer)).toEqual([]);

    // Ulrich chose nothing: the notice centre only.
    expect(await noticesOf(undecided)).toHaveLength(1);
    expect(await mailsOf(undecided)).toEqual([]);

    // Awa chose SMS (and no notice): one SMS reaches the simulator.
    expect(await noticesOf(texter)).toEqual([]);
    expect(await mailsOf(texter)).toEqual([]);
    h.reconciler.reconcile('new');
    const sms = await h.until(async () =>
      (await h.inbox(texter.number)).find((m) => m.text.includes('/ma-liste/vendre')),
    );
    expect(sms.text).toContain("C'est le moment de vendre les manuels");
    expect(sms.text).toContain('https://cartable.ga/ma-liste/vendre');
    expect(sms.text.length).toBeLessThanOrEqual(SMS_MAX);
    expect(await reminderSmsOf(texter)).toHaveLength(1);

    // Ghislain, deactivated, gets nothing.
    expect(await noticesOf(deactivated)).toEqual([]);
    expect(await mailsOf(deactivated)).toEqual([]);
    expect(
      await h.db.select().from(schoolYearReminders).where(eq(schoolYearReminders.userId, deactivated.sub)),
    ).toEqual([]);
  });

  it('sends nothing more when the job runs again in the same season (after a crash, the next hour)', async () => {
    expect(await sendSchoolYearReminders(h.db, new Date(JUNE.getTime() + 3600_000))).toBe(0);
    expect(await mailsOf(mailer)).toHaveLength(1);
    expect(await noticesOf(mailer)).toHaveLength(1);
    expect(await noticesOf(undecided)).toHaveLength(1);
    expect(await reminderSmsOf(texter)).toHaveLength(1);
  });

  it('in August, reminds once more to buy before the rentrée, then the member can stop the e-mails', async () => {
    expect(await sendSchoolYearReminders(h.db, AUGUST)).toBe(3);
    const mails = await mailsOf(mailer);
    expect(mails).toHaveLength(2);
    const august = mails.find((m) => m.id.includes('acheter'))!;
    const rendered = render({ template: august.template, data: august.data } as Mail, 'https://cartable.ga');
    expect(rendered.text).toContain(
      'La rentrée approche : complétez la liste de manuels de votre enfant avant septembre.',
    );
    expect(rendered.text).toContain('https://cartable.ga/ma-liste\n');
    const [sms] = (await reminderSmsOf(texter)).filter((row) => row.id.includes('acheter'));
    expect(sms).toBeDefined();

    const { unsubscribeToken } = august.data as { unsubscribeToken: string };
    const url = `/notifications/unsubscribe?token=${unsubscribeToken}&kind=school_year`;
    expect((await h.call('GET', url)).body).toMatchObject({ kind: 'school_year', active: true });
    expect((await h.call('POST', url)).body).toMatchObject({ kind: 'school_year', active: false });
    expect((await h.call('GET', '/notifications/channels', mailer)).body.channels.school_year).toEqual({
      email: false,
      sms: false,
      in_app: true,
    });
  });

  it('reminds a member reactivated, whatever order the events arrive in, and never a deleted one', async () => {
    const event = <T extends 'auth.user.deactivated' | 'auth.user.reactivated' | 'auth.user.deleted'>(
      type: T,
      data: Envelope<T>['data'],
    ) => ({ id: randomUUID(), type, occurred_at: new Date().toISOString(), data }) as Envelope<T>;
    const handle = (envelope: Envelope) =>
      h.db.transaction((tx) => memberAddresses[envelope.type]!(tx, envelope as never));
    const at = new Date().toISOString();
    await handle(event('auth.user.reactivated', { user_id: deactivated.sub, reactivated_at: at, version: 5 }));
    // The deactivation heard again late (version 3) does not undo it.
    await handle(event('auth.user.deactivated', { user_id: deactivated.sub, deactivated_at: at, version: 3 }));
    await handle(
      event('auth.user.deleted', {
        user_id: undecided.sub,
        email: `${undecided.sub.slice(0, 8)}@example.ga`,
        name: 'Ulrich',
        deleted_at: at,
        version: 2,
      }),
    );
    const october = new Date('2027-10-04T11:00:00Z');
    expect(await sendSchoolYearReminders(h.db, october)).toBe(1);
    expect(await mailsOf(deactivated)).toHaveLength(1);
    // Ulrich's June and August notices, none since his account was deleted.
    expect(await noticesOf(undecided)).toHaveLength(2);
  });
});

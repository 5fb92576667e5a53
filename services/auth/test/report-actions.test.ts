import { randomUUID } from 'node:crypto';
import type { Envelope } from '@cartable/contracts';
import { PermanentEventError } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '../src/db/schema.ts';
import { reportActions } from '../src/events/report-actions.ts';
import { type AuthHarness, startAuth } from './harness.ts';

/**
 * A report's decision to deactivate its member (moderation.report.decided) is applied here as the
 * back office's « Désactiver » is: sessions ended, login refused, the trail and
 * auth.user.deactivated; then answered (auth.report.applied) so that moderation closes the
 * reports. Delivered again, it changes nothing.
 */
let h: AuthHarness;
let adminId: string;
beforeAll(async () => {
  h = await startAuth();
  adminId = (await h.call('GET', '/user', undefined, await h.admin())).body.user.id;
});
afterAll(() => h?.teardown());

const decided = (userId: string, over: Record<string, unknown> = {}) => ({
  report_ids: [randomUUID()],
  decision: 'deactivated' as const,
  target_type: 'book' as const,
  target_id: '42',
  target_owner_id: userId,
  moderator_id: adminId,
  note: 'Arnaques répétées',
  ...over,
});

/** Handled as the consumer does: in one transaction of the unit of work. */
async function deliver(data: ReturnType<typeof decided>) {
  const envelope = {
    id: randomUUID(),
    type: 'moderation.report.decided',
    occurred_at: new Date().toISOString(),
    data,
  } as Envelope<'moderation.report.decided'>;
  const handle = reportActions({ revocation: h.revocation })['moderation.report.decided']!;
  await h.uow.run((t) => handle(t.db, envelope, t));
}

describe('a report’s decision to deactivate a member', () => {
  it('deactivates them as the back office does, answers moderation, and changes nothing the second time', async () => {
    const member = await h.member('signale');
    const event = decided(member.user.id);
    await deliver(event);

    expect((await h.revocationOf(member.token)).database).toBe(true);
    expect((await h.call('POST', '/login', { email: member.email, password: 'Cartable1a' })).status).toBe(403);
    const trail = await h.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, member.user.id));
    expect(trail).toEqual([
      expect.objectContaining({
        action: 'user.deactivated',
        actorId: adminId,
        details: { reason: 'Arnaques répétées' },
      }),
    ]);
    const deactivated = (await h.events('auth.user.deactivated')).filter((e) => e.user_id === member.user.id);
    expect(deactivated).toHaveLength(1);
    expect(await h.events('auth.report.applied')).toEqual([{ report_ids: event.report_ids, outcome: 'applied' }]);

    await deliver(event);
    expect((await h.events('auth.user.deactivated')).filter((e) => e.user_id === member.user.id)).toHaveLength(1);
    expect(await h.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetUserId, member.user.id))).toHaveLength(
      1,
    );
    expect((await h.events('auth.report.applied')).at(-1)).toEqual({
      report_ids: event.report_ids,
      outcome: 'already',
    });
  });

  it('answers `gone` for a member who is no more, ignores other decisions and never deactivates the moderator', async () => {
    const unknown = decided(randomUUID());
    await deliver(unknown);
    expect((await h.events('auth.report.applied')).at(-1)).toEqual({ report_ids: unknown.report_ids, outcome: 'gone' });

    const before = (await h.events('auth.report.applied')).length;
    const member = await h.member('averti');
    await deliver(decided(member.user.id, { decision: 'hidden' }));
    await deliver(decided(member.user.id, { decision: 'warned' }));
    expect(await h.events('auth.report.applied')).toHaveLength(before);
    expect((await h.call('POST', '/login', { email: member.email, password: 'Cartable1a' })).status).toBe(200);

    await expect(deliver(decided(adminId))).rejects.toBeInstanceOf(PermanentEventError);
  });
});

import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * A report's decision through the whole stack: one call to moderation, the action applied by the
 * service that owns it over NATS (catalog hides the listing, auth deactivates the member), and the
 * report « Traité » only once it is.
 */
let stack: TestStack;
let admin: string;
beforeAll(async () => {
  stack = sharedStack();
  admin = (await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } })).body
    .access_token;
});

/** Reported as soon as moderation knows the target (its projections follow catalog's and auth's events). */
const report = (token: string, body: Record<string, string>) =>
  eventually(async () => {
    const res = await call(`${stack.api}/reports`, { token, body });
    return res.status === 404 ? undefined : res;
  }, 20_000);

const reportOf = async (id: string) =>
  (await call(`${stack.api}/admin/reports/${id}`, { token: admin })).body.report as { status: string };

describe('a report’s decision and its action', () => {
  it('hides a reported listing through catalog, tells its owner, then closes the report', async () => {
    const [seller, buyer] = await Promise.all([verifiedMember(stack, 'signale'), verifiedMember(stack, 'signaleur')]);
    const bookId = await listBook(stack, seller.token, 'Anglais 4e à masquer');
    const created = await report(buyer.token, { target_type: 'book', target_id: String(bookId), reason: 'arnaque' });
    expect(created.status).toBe(201);
    const id = created.body.report.id as string;

    const decided = await call(`${stack.api}/admin/reports/${id}/resolve`, {
      token: admin,
      body: { decision: 'hidden', note: 'Annonce frauduleuse' },
    });
    expect(decided.status).toBe(200);
    expect(decided.body.status).toBe('applying');
    await eventually(async () => ((await reportOf(id)).status === 'actioned' ? true : undefined), 20_000);
    expect((await call(`${stack.api}/books/${bookId}`)).status).toBe(404);
    const mail = await stack.mail.waitFor(seller.email, { subject: 'Votre annonce a été masquée' });
    expect(mail.text).toContain('Annonce frauduleuse');
  });

  it('deactivates a reported member through auth, then closes the report', async () => {
    const [member, reporter] = await Promise.all([verifiedMember(stack, 'desactive'), verifiedMember(stack, 'temoin')]);
    const created = await report(reporter.token, { target_type: 'user', target_id: member.id, reason: 'arnaque' });
    expect(created.status).toBe(201);
    const id = created.body.report.id as string;
    const decided = await call(`${stack.api}/admin/reports/${id}/resolve`, {
      token: admin,
      body: { decision: 'deactivated', note: 'Arnaques répétées' },
    });
    expect(decided.body.status).toBe('applying');
    await eventually(async () => ((await reportOf(id)).status === 'actioned' ? true : undefined), 20_000);
    expect((await call(`${stack.api}/login`, { body: { email: member.email, password: 'Cartable1a' } })).status).toBe(
      403,
    );
    expect((await call(`${stack.api}/user`, { token: member.token })).status).toBe(401);
  });
});

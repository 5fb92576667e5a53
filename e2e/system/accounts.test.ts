import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';

/** Account flows through the gateway, with the real e-mails and the other services' projections. */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});
async function sellerRow(username: string) {
  const client = new pg.Client({ connectionString: stack.databaseUrls.catalog });
  await client.connect();
  try {
    const { rows } = await client.query('select name, username from sellers where username = $1', [username]);
    return rows[0] as { name: string; username: string } | undefined;
  } finally {
    await client.end();
  }
}

describe('accounts through the whole stack', () => {
  it('mails a reset link that resets the password, and the old session is refused by the gateway', async () => {
    const { email, token } = await verifiedMember(stack, 'reset');
    expect((await call(`${stack.api}/forgot-password`, { body: { email } })).status).toBe(200);
    const mail = await stack.mail.waitFor(email, { subject: 'Réinitialisation' });
    const link = new URL(/http:\/\/\S+\/reset-password\?\S+/.exec(mail.text ?? '')?.[0] ?? '');
    const reset = await call(`${stack.api}/reset-password`, {
      body: {
        token: link.searchParams.get('token'),
        email,
        password: 'Nouveau2b',
        password_confirmation: 'Nouveau2b',
      },
    });
    expect(reset.status).toBe(200);
    expect((await call(`${stack.api}/user`, { token })).status).toBe(401);
    expect((await call(`${stack.api}/login`, { body: { email, password: 'Nouveau2b' } })).status).toBe(200);
  });

  it('e-mails the two-factor code and logs in with it', async () => {
    const { email, token } = await verifiedMember(stack, 'deuxetapes');
    await call(`${stack.api}/two-factor/enable`, { method: 'POST', token });
    const codeFrom = async (subject: string) =>
      (await stack.mail.waitFor(email, { subject })).subject.match(/(\d{6})/)?.[1];
    const enable = await codeFrom('Activez');
    expect((await call(`${stack.api}/two-factor/confirm`, { body: { code: enable }, token })).status).toBe(200);
    const challenge = await call(`${stack.api}/login`, { body: { email, password: 'Cartable1a' } });
    expect(challenge.body.two_factor_required).toBe(true);
    const code = await codeFrom('Votre code de connexion');
    const login = await call(`${stack.api}/login`, { body: { email, password: 'Cartable1a', code } });
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(email);
  });

  it('carries a profile change and an account deletion to the catalog’s sellers', async () => {
    const { token, username } = await verifiedMember(stack, 'vendeur');
    const newUsername = `maman_${username.slice(-6)}`;
    await eventually(async () => (await sellerRow(username)) ?? undefined);
    const updated = await call(`${stack.api}/user/profile`, {
      method: 'PUT',
      token,
      body: {
        name: 'Maman Ndong',
        username: newUsername,
        show_email: false,
        show_phone: false,
        country_id: 266,
        city_id: 1,
      },
    });
    expect(updated.status).toBe(200);
    await eventually(async () => ((await sellerRow(newUsername))?.name === 'Maman Ndong' ? true : undefined));
    expect(
      (await call(`${stack.api}/user/account`, { method: 'DELETE', token, body: { password: 'Cartable1a' } })).status,
    ).toBe(200);
    await eventually(async () => ((await sellerRow(newUsername)) ? undefined : true));
  });
});

describe('the dashboard follows the member’s books', () => {
  it('counts listings and their statuses from catalog’s events, with recent activity', async () => {
    const { token } = await verifiedMember(stack, 'tableau');
    const bookId = await listBook(stack, token, 'Anglais 3e');
    await call(`${stack.api}/books/${bookId}/status`, { method: 'PUT', token, body: { status: 'vendu' } });
    const stats = await eventually(async () => {
      const res = await call(`${stack.api}/user/stats`, { token });
      return res.body.stats.books_sold === 1 ? res.body.stats : undefined;
    });
    expect(stats).toMatchObject({ books_total: 1, books_available: 0, books_sold: 1 });
    const activity = await call(`${stack.api}/user/recent-activity`, { token });
    expect(activity.body.activities.map((a: { title: string }) => a.title)).toEqual(
      expect.arrayContaining(['Annonce publiée : Anglais 3e', 'Anglais 3e : vendu']),
    );
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness.ts';

let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h?.teardown());

const expireTokens = () => h.db.execute(sql`update account_tokens set expires_at = now() - interval '1 minute'`);

describe('registration and e-mail verification', () => {
  it('registers with 201, stores an unverified user, and records the verification event', async () => {
    const res = await h.register('awa');
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: 'awa@example.ga', email_verified: false });
    const event = await h.lastEvent('auth.user.registered', 'awa@example.ga');
    expect(event.verification.token).toMatch(/^[\w-]{40,}$/);
  });

  it('marks both fields with 409 when e-mail and username are taken (any case)', async () => {
    await h.register('taken');
    const res = await h.register('taken', { email: 'TAKEN@example.ga', username: 'ELEVE_taken' });
    expect(res.status).toBe(409);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'username']);
  });

  it('verifies once with the e-mailed link; reuse, another address and an expired link fail', async () => {
    const { email, body } = await h.register('verif');
    const check = { email, verification_check: body.verification_check };
    const { token } = (await h.lastEvent('auth.user.registered', email)).verification;
    expect((await h.call('POST', '/verify-email', { token, email: 'autre@example.ga' })).status).toBe(400);
    expect((await h.call('POST', '/check-email-verification', check)).body).toEqual({ verified: false });
    expect((await h.call('POST', '/verify-email', { token, email })).body.verified).toBe(true);
    expect((await h.call('POST', '/check-email-verification', check)).body).toEqual({ verified: true });
    const reused = await h.call('POST', '/verify-email', { token, email });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe(
      'Lien de vérification invalide. Veuillez vérifier votre email ou demandez un nouveau lien.',
    );

    const other = await h.register('expire');
    const expired = (await h.lastEvent('auth.user.registered', other.email)).verification.token;
    await expireTokens();
    expect((await h.call('POST', '/verify-email', { token: expired, email: other.email })).status).toBe(400);
  });

  it('resends a verification link that replaces the previous one', async () => {
    const { email } = await h.register('resend');
    const first = (await h.lastEvent('auth.user.registered', email)).verification.token;
    const res = await h.call('POST', '/resend-verification-email', { email });
    expect(res.status).toBe(200);
    const second = (await h.lastEvent('auth.email_verification.requested', email)).token;
    expect((await h.call('POST', '/verify-email', { token: first, email })).status).toBe(400);
    expect((await h.call('POST', '/verify-email', { token: second, email })).status).toBe(200);
    // Verified, unknown or waiting: the same answer, so the call tells nobody who has an account.
    const answers = await Promise.all(
      [email, 'inconnu@example.ga', (await h.register('resend_waiting')).email].map(async (address) => {
        const answer = await h.call('POST', '/resend-verification-email', { email: address });
        return { status: answer.status, body: answer.body };
      }),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200 });
    const unknownEvents = (await h.events('auth.email_verification.requested')).filter(
      (e: { email: string }) => e.email === 'inconnu@example.ga' || e.email === email,
    );
    expect(unknownEvents).toHaveLength(1); // only the resend before verification
  });
});

describe('login', () => {
  it('refuses a wrong password with 401 and an unverified account with its e-mail', async () => {
    await h.member('login');
    expect((await h.call('POST', '/login', { email: 'login@example.ga', password: 'Mauvais1a' })).status).toBe(401);
    await h.register('pasverifie');
    const res = await h.call('POST', '/login', { email: 'pasverifie@example.ga', password: 'Cartable1a' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ email_verified: false, email: 'pasverifie@example.ga' });
  });

  it('stops a sent reset link once the password is changed another way', async () => {
    const { email, token } = await h.member('reset_perime');
    await h.call('POST', '/forgot-password', { email });
    const link = (await h.lastEvent('auth.password_reset.requested', email)).token;
    const changed = await h.call(
      'PUT',
      '/user/change-password',
      { current_password: 'Cartable1a', password: 'Nouveau2b', password_confirmation: 'Nouveau2b' },
      token,
    );
    expect(changed.status).toBe(200);
    const reset = await h.call('POST', '/reset-password', {
      token: link,
      email,
      password: 'Autre3cc',
      password_confirmation: 'Autre3cc',
    });
    expect(reset.status).toBe(400);
  });

  it('refuses a common password at registration, with a French field error', async () => {
    const res = await h.register('commun', { password: 'Azerty123', password_confirmation: 'Azerty123' });
    expect(res.status).toBe(422);
    expect(res.body.errors.password[0]).toContain('trop courant');
  });

  it('tells the forms’ meter which passwords it would refuse as too common, and stores nothing', async () => {
    const check = async (password: string) => (await h.call('POST', '/password-check', { password })).body;
    // In the big list only, in the French favourites, and a personal one.
    expect(await check('Sunshine1')).toEqual({ common: true });
    expect(await check('Libreville2026')).toEqual({ common: true });
    expect(await check('Mvengue-Okoumé-7')).toEqual({ common: false });
    const tooLong = await h.call('POST', '/password-check', { password: 'a'.repeat(201) });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors.password[0]).toBe('Le mot de passe ne doit pas dépasser 200 caractères');
  });

  it('makes an account wait after repeated failures, whatever the address they come from', async () => {
    await h.member('verrou');
    for (let i = 0; i < h.config.LOGIN_FREE_ATTEMPTS; i++) {
      await h.call('POST', '/login', { email: 'verrou@example.ga', password: 'Mauvais1a' });
    }
    const locked = await h.call('POST', '/login', { email: 'verrou@example.ga', password: 'Cartable1a' });
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Trop de tentatives. Veuillez attendre avant de réessayer.');
  });

  it('revokes the token at logout', async () => {
    const { token } = await h.member('logout');
    expect((await h.call('POST', '/logout', undefined, token)).status).toBe(200);
    expect(await h.revocationOf(token)).toEqual({ database: true, cache: 'revoked' });
  });
});

describe('forgotten password', () => {
  it('answers 404 with the spec message for an unknown address', async () => {
    const res = await h.call('POST', '/forgot-password', { email: 'personne@example.ga' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Aucun compte trouvé avec cette adresse email');
    expect((await h.call('POST', '/forgot-password', { email: '' })).body.errors.email).toContain(
      "L'adresse email est requise",
    );
  });

  it('resets with a single-use link, signs out every session, then the new password works', async () => {
    const { email, token: oldToken } = await h.member('oubli');
    expect((await h.call('POST', '/forgot-password', { email })).body.message).toBe(
      'Email de récupération envoyé avec succès !',
    );
    const { token } = await h.lastEvent('auth.password_reset.requested', email);
    expect((await h.call('POST', '/validate-reset-token', { token, email })).body).toEqual({ valid: true, email });
    expect((await h.call('POST', '/validate-reset-token', { token: 'faux', email })).status).toBe(400);

    const weak = await h.call('POST', '/reset-password', {
      token,
      email,
      password: 'faible',
      password_confirmation: 'faible',
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password).toContain('Le mot de passe doit contenir au moins 8 caractères');

    const body = { token, email, password: 'Nouveau2b', password_confirmation: 'Nouveau2b' };
    expect((await h.call('POST', '/reset-password', body)).status).toBe(200);
    const reused = await h.call('POST', '/reset-password', body);
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('Le lien de réinitialisation est invalide ou a expiré');

    expect(await h.revocationOf(oldToken)).toEqual({ database: true, cache: 'revoked' });
    expect((await h.call('POST', '/login', { email, password: 'Cartable1a' })).status).toBe(401);
    expect((await h.call('POST', '/login', { email, password: 'Nouveau2b' })).status).toBe(200);
    expect((await h.lastEvent('auth.password.changed', email)).reason).toBe('reset');
  });

  it('refuses an expired reset link', async () => {
    const { email } = await h.member('expire2');
    await h.call('POST', '/forgot-password', { email });
    const { token } = await h.lastEvent('auth.password_reset.requested', email);
    await expireTokens();
    expect((await h.call('POST', '/validate-reset-token', { token, email })).status).toBe(400);
  });
});

describe('password change', () => {
  it('needs the current password, then revokes older tokens and hands back a fresh one', async () => {
    const { token } = await h.member('change');
    const wrong = await h.call(
      'PUT',
      '/user/change-password',
      { current_password: 'Mauvais1a', password: 'Nouveau2b', password_confirmation: 'Nouveau2b' },
      token,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.current_password).toEqual(['Le mot de passe actuel est incorrect.']);
    const mismatch = await h.call(
      'PUT',
      '/user/change-password',
      { current_password: 'Cartable1a', password: 'Nouveau2b', password_confirmation: 'Autre3c' },
      token,
    );
    expect(mismatch.body.errors.password_confirmation).toEqual(['Les mots de passe ne correspondent pas']);

    const ok = await h.call(
      'PUT',
      '/user/change-password',
      { current_password: 'Cartable1a', password: 'Nouveau2b', password_confirmation: 'Nouveau2b' },
      token,
    );
    expect(ok.status).toBe(200);
    expect(await h.revocationOf(token)).toEqual({ database: true, cache: 'revoked' });
    expect(await h.revocationOf(ok.body.access_token)).toEqual({ database: false, cache: 'valid' });
    expect((await h.call('GET', '/user', undefined, ok.body.access_token)).status).toBe(200);
  });
});

describe('asking whether an address is verified', () => {
  it('tells only who proves they hold it: anyone else gets the same answer for unknown, waiting and verified', async () => {
    const verified = await h.member('verifie_deja');
    const waiting = await h.register('en_attente');
    const ask = async (body: object, token?: string) => {
      const res = await h.call('POST', '/check-email-verification', body, token);
      return { status: res.status, body: res.body };
    };
    const unproven = await Promise.all(
      [verified.email, waiting.email, 'personne@example.ga'].map((email) => ask({ email })),
    );
    expect(unproven).toEqual(Array(3).fill({ status: 200, body: { verified: false } }));
    // A proof for another address proves nothing.
    expect(await ask({ email: verified.email, verification_check: waiting.body.verification_check })).toEqual({
      status: 200,
      body: { verified: false },
    });
    expect(await ask({ email: verified.email, verification_check: 'x'.repeat(43) })).toEqual({
      status: 200,
      body: { verified: false },
    });
    // The account's own token is a proof.
    expect((await ask({ email: verified.email }, verified.token)).body).toEqual({ verified: true });

    // A login with the right password on an address still waiting gives the proof too.
    const login = await h.call('POST', '/login', { email: waiting.email, password: 'Cartable1a' });
    expect(login.status).toBe(403);
    expect(login.body).toMatchObject({ email_verified: false, email: waiting.email });
    const proof = { email: waiting.email, verification_check: login.body.verification_check };
    expect((await ask(proof)).body).toEqual({ verified: false });
    const { token } = (await h.lastEvent('auth.user.registered', waiting.email)).verification;
    await h.call('POST', '/verify-email', { token, email: waiting.email });
    expect((await ask(proof)).body).toEqual({ verified: true });
  });
});

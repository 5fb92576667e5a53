import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness.ts';

let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth({ LOGIN_MAX_FAILURES: '10' });
});
afterAll(() => h?.teardown());

const profileBody = {
  name: 'Awa Mba',
  username: 'awa_mba',
  phone: '+241 77 12 34 56',
  bio: 'Élève de Terminale D à Libreville.',
  show_email: false,
  show_phone: true,
  country_id: 266,
  city_id: 2,
};

async function upload(token: string, file: Buffer, filename: string, contentType: string) {
  const boundary = '----cartable';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="profile_image"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST',
    url: '/user/profile/image',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answer
  return { status: res.statusCode, body: res.json() as any };
}

describe('profile', () => {
  it('reads and updates the profile, refuses a taken username, and tells other services', async () => {
    const { token, user } = await h.member('profil');
    await h.member('autre');
    const before = await h.call('GET', '/user/profile', undefined, token);
    expect(before.body.profile).toMatchObject({
      email: 'profil@example.ga',
      two_factor_enabled: false,
      show_email: false,
    });

    const taken = await h.call('PUT', '/user/profile', { ...profileBody, username: 'ELEVE_AUTRE' }, token);
    expect(taken.status).toBe(409);
    expect(taken.body.errors.username[0]).toContain('ELEVE_AUTRE');
    const invalid = await h.call('PUT', '/user/profile', { ...profileBody, phone: 'abc', name: 'admin' }, token);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.phone).toEqual(['Numéro de téléphone invalide']);

    const saved = await h.call('PUT', '/user/profile', profileBody, token);
    expect(saved.body.profile).toMatchObject({
      name: 'Awa Mba',
      phone: '+241 77 12 34 56',
      show_phone: true,
      city_id: 2,
    });
    const updated = (await h.events('auth.user.updated')).filter((e) => e.user_id === user.id).at(-1);
    // Only what the member chose to show leaves the service.
    expect(updated).toMatchObject({ username: 'awa_mba', email: null, phone: '+241 77 12 34 56' });

    const pub = await h.call('GET', `/users/${user.id}`);
    expect(pub.body.user).toMatchObject({ name: 'Awa Mba', email: null, phone: '+241 77 12 34 56' });
    expect((await h.call('GET', '/users/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('re-encodes an uploaded photo to a square WebP without metadata, and removes it', async () => {
    const { token } = await h.member('photo');
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#009E60' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret' } } })
      .toBuffer();
    // Named .txt on purpose: the content decides, not the name.
    const res = await upload(token, jpeg, 'photo.txt', 'text/plain');
    expect(res.status).toBe(200);
    const url: string = res.body.profile.profile_image;
    expect(url).toMatch(/^\/storage\/profiles\/.+\.webp$/);
    const { readFile } = await import('node:fs/promises');
    const stored = await readFile(`${h.config.DATA_DIR}/storage/${url.slice('/storage/'.length)}`);
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 256, 256, undefined]);

    const notImage = await upload(token, Buffer.from('%PDF-1.4 not an image'), 'cv.jpg', 'image/jpeg');
    expect(notImage.status).toBe(422);
    expect(notImage.body.errors.profile_image[0]).toContain("n'est pas une image");

    const removed = await h.call('DELETE', '/user/profile/image', undefined, token);
    expect(removed.body.profile.profile_image).toBeNull();
  });

  it('refuses a photo over the size limit', async () => {
    const small = await startAuth({ PROFILE_IMAGE_MAX_BYTES: '1000' });
    try {
      const { token } = await small.member('grosse');
      const big = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#FCD116' } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      const saved = h;
      h = small;
      const res = await upload(token, big, 'grosse.png', 'image/png');
      h = saved;
      expect(res.status).toBe(422);
      expect(res.body.errors.profile_image[0]).toContain('ne doit pas dépasser');
    } finally {
      await small.teardown();
    }
  });

  it('shows zero stats and the member’s recent activity', async () => {
    const { token } = await h.member('stats');
    expect((await h.call('GET', '/user/stats', undefined, token)).body.stats).toEqual({
      books_total: 0,
      books_available: 0,
      books_sold: 0,
      conversations: 0,
      messages_received: 0,
      comments: 0,
    });
    await h.call('PUT', '/user/profile', { ...profileBody, username: 'stats_user' }, token);
    const activity = await h.call('GET', '/user/recent-activity', undefined, token);
    expect(activity.body.activities[0]).toMatchObject({ type: 'profile.updated', title: 'Profil mis à jour' });
  });

  it('deletes the account only with the right password, and ends its sessions', async () => {
    const { token, email } = await h.member('depart');
    expect((await h.call('DELETE', '/user/account', { password: 'Mauvais1a' }, token)).status).toBe(422);
    expect((await h.call('DELETE', '/user/account', { password: 'Cartable1a' }, token)).status).toBe(200);
    expect(await h.revocationOf(token)).toEqual({ database: true, cache: 'revoked' });
    expect((await h.call('GET', '/user', undefined, token)).status).toBe(401);
    expect((await h.call('POST', '/login', { email, password: 'Cartable1a' })).status).toBe(401);
    expect((await h.lastEvent('auth.user.deleted', email)).name).toBe('Élève depart');
  });
});

describe('two-factor by e-mailed code', () => {
  const latestCode = async (email: string, purpose: string) =>
    (await h.events('auth.two_factor.code_requested')).filter((e) => e.email === email && e.purpose === purpose).at(-1)
      ?.code as string;
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it('turns on with an e-mailed code, then login asks for a code, and recovery codes work once', async () => {
    const { token, email } = await h.member('deux');
    expect((await h.call('POST', '/two-factor/enable', undefined, token)).body.code_sent).toBe(true);
    const enableCode = await latestCode(email, 'enable');
    const bad = await h.call('POST', '/two-factor/confirm', { code: wrong(enableCode) }, token);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.code).toEqual(['Code de vérification invalide ou expiré.']);
    expect((await h.call('POST', '/two-factor/confirm', { code: '12a' }, token)).body.errors.code).toEqual([
      'Code de vérification requis (6 chiffres)',
    ]);
    const confirmed = await h.call('POST', '/two-factor/confirm', { code: enableCode }, token);
    expect(confirmed.status).toBe(200);
    const recovery: string[] = confirmed.body.recovery_codes;
    expect(recovery).toHaveLength(8);

    const challenge = await h.call('POST', '/login', { email, password: 'Cartable1a' });
    expect(challenge.body).toMatchObject({
      two_factor_required: true,
      code_sent: true,
      message: 'Code de vérification envoyé par email',
    });
    expect(challenge.body.access_token).toBeUndefined();
    const first = await latestCode(email, 'login');
    expect((await h.call('POST', '/two-factor/resend', { email })).body.message).toBe('Nouveau code envoyé par email');
    const second = await latestCode(email, 'login');
    if (first !== second) {
      expect((await h.call('POST', '/login', { email, password: 'Cartable1a', code: first })).status).toBe(422);
    }
    const withCode = await h.call('POST', '/login', { email, password: 'Cartable1a', code: second });
    expect(withCode.status).toBe(200);
    expect(withCode.body.access_token).toBeTypeOf('string');
    // Single use.
    expect((await h.call('POST', '/login', { email, password: 'Cartable1a', code: second })).status).toBe(422);

    const viaRecovery = await h.call('POST', '/login', { email, password: 'Cartable1a', recovery_code: recovery[0] });
    expect(viaRecovery.status).toBe(200);
    const again = await h.call('POST', '/login', { email, password: 'Cartable1a', recovery_code: recovery[0] });
    expect(again.status).toBe(422);
    expect((await h.call('GET', '/user/profile', undefined, viaRecovery.body.access_token)).body.profile).toMatchObject(
      {
        two_factor_enabled: true,
        recovery_codes_left: 7,
      },
    );
  });

  it('burns a code after five wrong tries', async () => {
    const { token, email } = await h.member('essais');
    await h.call('POST', '/two-factor/enable', undefined, token);
    await h.call('POST', '/two-factor/confirm', { code: await latestCode(email, 'enable') }, token);
    await h.call('POST', '/login', { email, password: 'Cartable1a' });
    const code = await latestCode(email, 'login');
    let last = { status: 0, body: {} as { errors?: { code?: string[] } } };
    for (let i = 0; i < 5; i++)
      last = await h.call('POST', '/login', { email, password: 'Cartable1a', code: wrong(code) });
    expect(last.body.errors?.code).toEqual(['Trop de codes erronés. Demandez un nouveau code.']);
    expect((await h.call('POST', '/login', { email, password: 'Cartable1a', code })).status).toBe(422);
  });

  it('sends a code only to an account waiting for one', async () => {
    await h.member('attente');
    const res = await h.call('POST', '/two-factor/resend', { email: 'attente@example.ga', type: 'login' });
    expect(res.status).toBe(422);
    expect((await h.call('POST', '/two-factor/resend', { email: 'attente@example.ga', type: 'disable' })).status).toBe(
      401,
    );
  });

  it('regenerates recovery codes and turns off with the password (and the code when given)', async () => {
    const { token, email } = await h.member('fin');
    await h.call('POST', '/two-factor/enable', undefined, token);
    const { body } = await h.call('POST', '/two-factor/confirm', { code: await latestCode(email, 'enable') }, token);
    expect((await h.call('POST', '/two-factor/regenerate-codes', { password: 'Mauvais1a' }, token)).status).toBe(422);
    const fresh = await h.call('POST', '/two-factor/regenerate-codes', { password: 'Cartable1a' }, token);
    expect(fresh.body.recovery_codes).toHaveLength(8);
    // The old codes stopped working.
    expect(
      (await h.call('POST', '/login', { email, password: 'Cartable1a', recovery_code: body.recovery_codes[0] })).status,
    ).toBe(422);

    expect((await h.call('POST', '/two-factor/resend', { email, type: 'disable' }, token)).status).toBe(200);
    const code = await latestCode(email, 'disable');
    expect(
      (await h.call('POST', '/two-factor/disable', { password: 'Cartable1a', code: wrong(code) }, token)).status,
    ).toBe(422);
    expect((await h.call('POST', '/two-factor/disable', { password: 'Cartable1a', code }, token)).status).toBe(200);
    const login = await h.call('POST', '/login', { email, password: 'Cartable1a' });
    expect(login.body.two_factor_required).toBe(false);
  });
});

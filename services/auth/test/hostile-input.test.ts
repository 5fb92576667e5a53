import { crc32 } from 'node:zlib';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema.ts';
import { type AuthHarness, startAuth } from './harness.ts';

/**
 * What a client sends wrong answers a French 4xx, on the real database.
 */
let h: AuthHarness;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(() => h?.teardown());

const registration = (n: string) => ({
  name: `Parent ${n}`,
  email: `${n}@example.ga`,
  username: `parent_${n}`,
  password: 'Cartable1a',
  password_confirmation: 'Cartable1a',
  country_id: 266,
  city_id: 1,
});

async function uploadPhoto(token: string, file: Buffer) {
  const boundary = '----cartable-hostile';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="profile_image"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
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

describe('registration', () => {
  it('refuses a NUL byte or a control character in the name with a French 422', async () => {
    for (const name of ['Awa\u0000Mba', 'Awa\u001bMba', 'Awa\u0085Mba']) {
      const res = await h.call('POST', '/register', { ...registration('nul'), name });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({
        name: ['Ce texte contient des caractères non autorisés (caractère nul ou de contrôle).'],
      });
    }
    const range = await h.call('POST', '/register', { ...registration('loin'), city_id: 99999999999 });
    expect(range.status).toBe(422);
    expect(range.body.errors).toEqual({ city_id: ['La ville est obligatoire'] });
  });

  it('answers one 201 and 409s to ten sign-ups with the same address at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        h.call('POST', '/register', { ...registration('jumeaux'), username: `jumeau_${i}` }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.errors.email).toEqual([
        "L'adresse email jumeaux@example.ga est déjà utilisée. Connectez-vous ou utilisez une autre adresse.",
      ]);
    }
    expect(await h.db.select().from(users).where(eq(users.email, 'jumeaux@example.ga'))).toHaveLength(1);
  });
});

describe('profile', () => {
  it('refuses a NUL in the bio and ids out of range with a French 422', async () => {
    const { token } = await h.member('bio_nul');
    const res = await h.call(
      'PUT',
      '/user/profile',
      { name: 'Parent Bio', username: 'parent_bio', bio: 'Bonjour\u0000', country_id: 266, city_id: 2147483648 },
      token,
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['bio', 'city_id']);
    const activity = await h.call('GET', '/user/recent-activity?limit=99999999999', undefined, token);
    expect(activity.status).toBe(422);
    // The list of members is the back office's: a member is refused before the query is judged.
    expect((await h.call('GET', '/users/all?page=1e308', undefined, token)).status).toBe(403);
    expect((await h.call('GET', '/users/all?page=1e308', undefined, await h.admin())).status).toBe(422);
  });

  it('refuses a photo over the pixel limit and a truncated one with a French 422', async () => {
    const { token } = await h.member('bombe');
    const png = Buffer.from(
      await sharp({ create: { width: 1, height: 1, channels: 3, background: '#009e60' } })
        .png()
        .toBuffer(),
    );
    // The header claims 20,000 × 20,000 pixels: 400 million, for a few bytes.
    png.writeUInt32BE(20_000, 16);
    png.writeUInt32BE(20_000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
    const bomb = await uploadPhoto(token, png);
    expect(bomb.status).toBe(422);
    expect(bomb.body.errors.profile_image).toEqual(['Cette image est trop grande : 40 millions de pixels au plus.']);
    const jpeg = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3a75c4' } })
      .jpeg()
      .toBuffer();
    const truncated = await uploadPhoto(token, jpeg.subarray(0, jpeg.length / 2));
    expect(truncated.status).toBe(422);
    expect(truncated.body.errors.profile_image).toEqual([
      'Cette image est illisible ou incomplète. Essayez un autre fichier.',
    ]);
    expect((await h.call('GET', '/user/profile', undefined, token)).body.profile.profile_image).toBeNull();
  });
});

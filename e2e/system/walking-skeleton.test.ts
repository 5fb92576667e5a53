import { call, eventually, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfigSchema } from '../../gateway/src/config.ts';

/**
 * The one thread through every part, on real processes, PostgreSQL,
 * NATS JetStream, Redis, BullMQ and SMTP.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.teardown();
});

const registration = (n: string) => ({
  name: `Élève ${n}`,
  email: `eleve.${n}@example.ga`,
  username: `eleve_${n}`,
  password: 'Cartable1a',
  password_confirmation: 'Cartable1a',
  country_id: 266,
  city_id: 1,
});

async function sellerUsernames(): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrls.catalog });
  await client.connect();
  try {
    const { rows } = await client.query<{ username: string }>('select username from sellers order by username');
    return rows.map((r) => r.username);
  } finally {
    await client.end();
  }
}

describe('walking skeleton', () => {
  it('lists every country from the catalog, Gabon with id 266, and its cities by province', async () => {
    const { status, body } = await call(`${stack.api}/locations/countries`);
    expect(status).toBe(200);
    expect(body.countries.length).toBeGreaterThan(240);
    expect(body.countries).toContainEqual({ id: 266, nom_fr_fr: 'Gabon', alpha2: 'GA' });

    const provinces = await call(`${stack.api}/countries/266/provinces`);
    expect(provinces.body.provinces).toHaveLength(9);
    const cities = await call(`${stack.api}/locations/cities?country_id=266&major_only=true`);
    expect(cities.body.cities).toContainEqual(
      expect.objectContaining({ name: 'Libreville', province: 'Estuaire', is_major: true }),
    );
    expect((await call(`${stack.api}/locations/cities?country_id=abc`)).status).toBe(422);
  });

  it('registers a user: argon2id hash, French verification e-mail through BullMQ, sellers projection', async () => {
    const { status, body } = await call(`${stack.api}/register`, { body: registration('awa') });
    expect(status).toBe(201);
    expect(body.user).toMatchObject({ email: 'eleve.awa@example.ga', email_verified: false, is_admin: false });

    const mail = await stack.mail.waitFor('eleve.awa@example.ga');
    expect(mail.subject).toBe('Confirmez votre adresse email – Cartable');
    expect(mail.text).toContain('Bienvenue sur Cartable');
    const link = /http:\/\/localhost:\d+\/verify-email\?token=[\w-]+&email=[^\s"]+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();

    const client = new pg.Client({ connectionString: stack.databaseUrls.auth });
    await client.connect();
    const { rows } = await client.query('select password_hash from users where email = $1', ['eleve.awa@example.ga']);
    await client.end();
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);

    await eventually(async () => ((await sellerUsernames()).includes('eleve_awa') ? true : undefined));

    // The link verifies the address once; a second use is refused.
    const url = new URL(link!);
    const verify = { token: url.searchParams.get('token'), email: url.searchParams.get('email') };
    expect((await call(`${stack.api}/verify-email`, { body: verify })).status).toBe(200);
    const again = await call(`${stack.api}/verify-email`, { body: verify });
    expect(again.status).toBe(400);
    expect(again.body.message).toContain('Lien de vérification invalide');
  });

  it('refuses a taken e-mail or username with 409 and the fields named', async () => {
    const first = await call(`${stack.api}/register`, { body: registration('dup') });
    expect(first.status).toBe(201);
    const { status, body } = await call(`${stack.api}/register`, { body: registration('dup') });
    expect(status).toBe(409);
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'username']);
    expect(body.errors.email[0]).toContain('eleve.dup@example.ga');
  });

  it('answers bad input with 422 and French field errors, never a 5xx', async () => {
    const { status, body } = await call(`${stack.api}/register`, {
      body: { name: 'root', email: 'pas-un-email', username: 'a b', password: 'court' },
    });
    expect(status).toBe(422);
    expect(body.errors.name).toContain('Ce nom contient un mot réservé, veuillez en choisir un autre');
    expect(body.errors.email).toContain("Format d'email invalide");
    expect(body.errors.password_confirmation).toContain('La confirmation du mot de passe est requise');
    const broken = await fetch(`${stack.api}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { message: string }).message).toBe(
      'Le corps de la requête doit être un JSON valide.',
    );
  });

  it('logs the seeded admin in, answers GET /user with the token, and revokes it at logout', async () => {
    const login = await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ two_factor_required: false, user: { is_admin: true, email_verified: true } });
    const token = login.body.access_token as string;

    const me = await call(`${stack.api}/user`, { token });
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('admin@cartable.ga');
    expect(me.body.user.roles[0].slug).toBe('admin');

    expect((await call(`${stack.api}/logout`, { method: 'POST', token })).status).toBe(200);
    const after = await call(`${stack.api}/user`, { token });
    expect(after.status).toBe(401);
    expect(after.body.message).toBeTypeOf('string');
  });

  it('refuses an unverified account at login with email_verified false and the e-mail', async () => {
    await call(`${stack.api}/register`, { body: registration('nonverifie') });
    const { status, body } = await call(`${stack.api}/login`, {
      body: { email: 'eleve.nonverifie@example.ga', password: 'Cartable1a' },
    });
    expect(status).toBe(403);
    expect(body).toMatchObject({ email_verified: false, email: 'eleve.nonverifie@example.ga' });
  });

  it('answers 404 JSON for an unknown /api path and the shell for an unknown page', async () => {
    const api = await call(`${stack.api}/nimporte/quoi`);
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ message: "Cette adresse de l'API n'existe pas." });
    const page = await fetch(`${stack.url('gateway')}/une/page/inconnue`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('answers 503 JSON while catalog is down, keeps auth working, and catalog catches up after restart', async () => {
    await stack.stop('catalog');
    const down = await call(`${stack.api}/locations/countries`);
    expect(down.status).toBe(503);
    expect(down.body.message).toBe('Service temporairement indisponible. Veuillez réessayer dans quelques instants.');

    const login = await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } });
    expect(login.status).toBe(200);
    expect((await call(`${stack.api}/register`, { body: registration('pendant_panne') })).status).toBe(201);

    await stack.start('catalog');
    await eventually(async () => ((await sellerUsernames()).includes('eleve_pendant_panne') ? true : undefined));
    expect((await call(`${stack.api}/locations/countries`)).status).toBe(200);
  });

  it('rate-limits login attempts with a French 429', async () => {
    const limit = gatewayConfigSchema.parse({}).RATE_LIMIT_LOGIN.max;
    let last = { status: 0, body: {} as { message?: string } };
    for (let i = 0; i <= limit; i++) {
      last = await call(`${stack.api}/login`, { body: { email: 'personne@example.ga', password: 'Mauvais1' } });
    }
    expect(last.status).toBe(429);
    expect(last.body.message).toBe('Trop de tentatives. Veuillez attendre avant de réessayer.');
  });

  it('rate-limits forgot-password per address with the spec’s French 429', async () => {
    const limit = gatewayConfigSchema.parse({}).RATE_LIMIT_FORGOT_PASSWORD.max;
    let last = { status: 0, body: {} as { message?: string } };
    for (let i = 0; i <= limit; i++) {
      last = await call(`${stack.api}/forgot-password`, { body: { email: 'personne@example.ga' } });
    }
    expect(last.status).toBe(429);
    expect(last.body.message).toBe('Trop de tentatives. Veuillez attendre avant de réessayer.');
  });
});

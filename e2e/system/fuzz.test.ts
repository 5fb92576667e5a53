import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { listBook, verifiedMember } from '@cartable/stack/members';
import { call, startTestStack, type TestStack } from '@cartable/stack/test-stack';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rateLimitSettings } from '../../gateway/src/config.ts';
import { type Access, routeTable } from '../../gateway/src/plugins/app/route-table.ts';

/**
 * No anonymous 5xx. Every operation the gateway's route table
 * reaches (the merged OpenAPI document lists them, with their parameters and bodies) and every
 * entry of the table itself is sent hostile input: malformed JSON, wrong types, integers out of
 * range, NUL and control characters, 5,000 levels of nesting, 1 MB strings, pixel bombs and
 * broken files, hostile path parameters; as a visitor, a verified member and the administrator.
 * Any 5xx, or an error answered with anything but a JSON `{ message }`, fails the test.
 *
 * The gateway's per-address limits are opened wide: the fuzz measures the services, not the
 * limiter (which its own tests cover).
 */
let stack: TestStack;
beforeAll(async () => {
  const wide = Object.fromEntries(Object.keys(rateLimitSettings).map((name) => [name, '1000000/60']));
  stack = await startTestStack({ env: wide });
});
afterAll(() => stack?.teardown());

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: Json[];
  minLength?: number;
  minItems?: number;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: Json;
}
interface Operation {
  method: string;
  path: string;
  parameters?: Array<{ in: 'path' | 'query'; name: string; schema?: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
interface Identity {
  name: 'visiteur' | 'membre' | 'admin';
  token?: string;
}
interface Case {
  method: string;
  url: string;
  who: Identity;
  what: string;
  body?: string | Buffer;
  type?: string;
  headers?: Record<string, string>;
}

// ── hostile values ──────────────────────────────────────────────────────────────────────────

/** In a path segment or a query string, already encoded as a client would send them. */
const hostileSegments = [
  '99999999999',
  '2147483648',
  '-1',
  '0',
  '1e308',
  'NaN',
  '1.5',
  'a%00b',
  '%01%1F%7F',
  '%ZZ',
  '%ED%A0%80',
  '..%2F..%2Fetc%2Fpasswd',
  `${'9'.repeat(180)}`,
  'x'.repeat(300),
];
const hostileQueryValues = [
  '99999999999',
  '-1',
  '1e308',
  'NaN',
  'a%00b',
  '%07%1B%5B2J',
  '%ZZ',
  encodeURIComponent('x'.repeat(4000)),
];
/** Raw JSON texts put where a field's value goes. */
const hostileJsonValues = [
  '99999999999',
  '-1',
  '1e308',
  '"NaN"',
  '"a\\u0000b"',
  '"\\u0007\\u001b[2J\\u202e"',
  '{"a":[1]}',
  '[null]',
  'true',
  'null',
];
const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
const megabyte = 'x'.repeat(1024 * 1024);

// ── request bodies from the documented schemas ──────────────────────────────────────────────

/** A plausible value for a schema: the base a single hostile field is put into. */
function sample(schema: JsonSchema | undefined): Json {
  if (!schema) return 'fuzz';
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return sample(choice.find((s) => s.type !== 'null') ?? choice[0]);
  if (schema.enum?.length) return schema.enum[0] ?? null;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]));
    default:
      if (schema.format === 'email') return 'fuzz@example.ga';
      if (schema.format === 'uuid') return randomUUID();
      return 'fuzz_value'.padEnd(schema.minLength ?? 0, 'x');
  }
}

/** Known good bodies, so that one hostile field reaches the rule behind the schema. */
const goodBodies: Record<string, Record<string, Json>> = {
  'POST /api/register': {
    name: 'Parent Fuzz',
    email: 'fuzz.register@example.ga',
    username: 'fuzz_register',
    password: 'Cartable1a',
    password_confirmation: 'Cartable1a',
    country_id: 266,
    city_id: 1,
  },
  'PUT /api/user/profile': { name: 'Parent Fuzz', username: 'fuzz_profile', country_id: 266, city_id: 1 },
  'POST /api/admin/cities': { name: 'Fuzzville', province: 'Estuaire', country_id: 266, is_major: false },
  'PUT /api/admin/cities/{id}': { name: 'Fuzzville', province: 'Estuaire', country_id: 266, is_major: false },
};

/** The raw JSON text of `base` with `field` (a path) set to the raw JSON `value`. */
function withField(base: Record<string, Json>, path: string[], value: string): string {
  const marker = `__fuzz_${randomUUID()}__`;
  const copy = structuredClone(base) as Record<string, Json>;
  let target: Record<string, Json> = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, Json>;
  target[path.at(-1)!] = marker;
  return JSON.stringify(copy).replace(`"${marker}"`, value);
}

/** Every field path of a body worth a hostile value: top-level fields and those of a list's first item. */
function fieldPaths(value: Record<string, Json>): string[][] {
  const paths: string[][] = [];
  for (const [key, v] of Object.entries(value)) {
    paths.push([key]);
    const first = Array.isArray(v) ? v[0] : undefined;
    if (first && typeof first === 'object' && !Array.isArray(first))
      for (const inner of Object.keys(first)) paths.push([key, '0', inner]);
  }
  return paths;
}

// ── files ───────────────────────────────────────────────────────────────────────────────────

/** A real PNG whose header claims 20,000 × 20,000 pixels: a decompression bomb by its size. */
async function pixelBomb(): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#009e60' } })
    .png()
    .toBuffer();
  const bomb = Buffer.from(png);
  bomb.writeUInt32BE(20_000, 16);
  bomb.writeUInt32BE(20_000, 20);
  bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)) >>> 0, 29);
  return bomb;
}

function multipart(fields: Record<string, string>, files: Record<string, Buffer>) {
  const boundary = `----fuzz${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const [name, file] of Object.entries(files))
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

// ── the run ─────────────────────────────────────────────────────────────────────────────────

const CONCURRENCY = 8;
/** Words of an English error message (zod's, Fastify's, a library's) that no French one holds. */
const english =
  /\b(Invalid|invalid|expected|Expected|received|Required|required|must|should|not found|Not Found|Bad Request|Unauthorized|Forbidden|Internal Server Error|Too big|Too small|Unexpected|Unsupported)\b/;

it('answers hostile input on every route with a French 4xx JSON, never a 5xx', async () => {
  const started = Date.now();
  const admin = (await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } }))
    .body.access_token as string;
  const member = await verifiedMember(stack, 'fuzz_membre');
  const bookId = await listBook(stack, member.token, 'Mathématiques 6e fuzz');
  const visitor: Identity = { name: 'visiteur' };
  const members: Identity = { name: 'membre', token: member.token };
  const administrator: Identity = { name: 'admin', token: admin };

  /** Everyone the access level lets through, plus one probe by each it refuses. */
  const identities = (access: Access): { full: Identity[]; probe: Identity[] } =>
    access === 'public'
      ? { full: [visitor, members, administrator], probe: [] }
      : access === 'user'
        ? { full: [members, administrator], probe: [visitor] }
        : { full: [administrator], probe: [visitor, members] };

  const doc = (await call(`${stack.api}/docs/openapi.json`)).body as {
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  };
  const accessOf = (path: string): Access => {
    const bare = path.slice('/api'.length).replace(/\{\w+\}/g, ':p');
    const exact = routeTable.find((r) => r.path.replace(/:\w+/g, ':p') === bare);
    if (exact) return exact.access;
    const wildcard = routeTable.find((r) => r.path.endsWith('/*') && bare.startsWith(r.path.slice(0, -1)));
    return wildcard?.access ?? 'public';
  };

  const cases: Case[] = [];
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
  // Real ids where an id is not the target, so that the body reaches the rule behind it.
  const usual = (name: string, schema?: JsonSchema) =>
    schema?.format === 'uuid' ? (name === 'userId' ? member.id : randomUUID()) : name === 'bookId' ? bookId : '1';
  const bomb = await pixelBomb();
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3a75c4' } })
    .png()
    .toBuffer();
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fcd116' } })
    .jpeg()
    .toBuffer();
  const brokenJpeg = jpeg.subarray(0, Math.floor(jpeg.length / 2));

  for (const op of operations) {
    // Logging out ends the identity's session: only a visitor tries it.
    const { full, probe } = op.path === '/api/logout' ? { full: [visitor], probe: [] } : identities(accessOf(op.path));
    const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
    const queryParams = (op.parameters ?? []).filter((p) => p.in === 'query');
    const url = (overrides: Record<string, string> = {}) =>
      `${stack.url('gateway')}${op.path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? String(usual(name, pathParams.find((p) => p.name === name)?.schema)))}`;
    const add = (who: Identity[], what: string, u: string, body?: string | Buffer, type?: string) => {
      for (const w of who) cases.push({ method: op.method, url: u, who: w, what, body, type });
    };
    const json = op.requestBody?.content['application/json']?.schema;
    const base = (goodBodies[`${op.method} ${op.path}`] ?? (json ? sample(json) : {})) as Record<string, Json>;
    const bodyFor = () => (json ? JSON.stringify(base) : undefined);

    add(probe, 'accès refusé', url(), bodyFor(), json ? 'application/json' : undefined);
    for (const param of pathParams)
      for (const value of hostileSegments)
        add(full, `chemin ${param.name}=${value}`, url({ [param.name]: value }), bodyFor(), json && 'application/json');
    for (const param of queryParams)
      for (const value of hostileQueryValues)
        add(full, `requête ${param.name}=${value.slice(0, 20)}`, `${url()}?${param.name}=${value}`);
    if (json) {
      const raw: Array<[string, string]> = [
        ['JSON malformé', '{"name": "a",'],
        ['JSON vide', ''],
        ['JSON null', 'null'],
        ['JSON liste', '[1,2]'],
        ['JSON texte', '"texte"'],
        ['5 000 niveaux (listes)', deepArray],
        ['5 000 niveaux (objets)', deepObject],
        ['chaîne de 1 Mo', JSON.stringify({ ...base, [Object.keys(base)[0] ?? 'x']: megabyte })],
        ['nombre hors JSON', '{"a": NaN}'],
      ];
      for (const [what, body] of raw) add(full, what, url(), body, 'application/json');
      for (const path of fieldPaths(base)) {
        for (const value of hostileJsonValues)
          add(full, `${path.join('.')}=${value.slice(0, 20)}`, url(), withField(base, path, value), 'application/json');
        add(full, `${path.join('.')}=5 000 niveaux`, url(), withField(base, path, deepObject), 'application/json');
        add(
          full,
          `${path.join('.')}=100 ko`,
          url(),
          withField(base, path, `"${'é'.repeat(50_000)}"`),
          'application/json',
        );
      }
    } else if (op.method !== 'GET' && op.method !== 'DELETE') {
      // No JSON body documented: a multipart form (listings, banners, photos, the CSV import).
      const fields = {
        title: 'Manuel\u0000fuzz',
        author: 'IPN\u0007',
        condition: 'bon',
        price: '99999999999',
        city_id: '99999999999',
        category_ids: '1,99999999999',
        country_id: '99999999999',
        name: 'a\u0000b',
      };
      const forms: Array<[string, Record<string, string>, Record<string, Buffer>]> = [
        ['champs hostiles', fields, {}],
        [
          'bombe de pixels',
          { title: 'Manuel fuzz', author: 'IPN', condition: 'bon', price: '1000', city_id: '1', category_ids: '1' },
          { image1: bomb, image: bomb, profile_image: bomb, csv_file: bomb },
        ],
        ['JPEG tronqué', {}, { image1: brokenJpeg, image: brokenJpeg, profile_image: brokenJpeg }],
        ['PNG pour un CSV', { country_id: '266' }, { csv_file: png }],
        [
          'CSV avec NUL',
          { country_id: '266' },
          { csv_file: Buffer.from('name,province\nLam\u0000baréné,Moyen-Ogooué\n') },
        ],
        ['CSV hors limites', { country_id: '99999999999' }, { csv_file: Buffer.from('name\n"non fermé\n') }],
      ];
      for (const [what, f, files] of forms) {
        const form = multipart(f, files);
        add(full, what, url(), form.body, form.type);
      }
      add(full, 'JSON malformé', url(), '{"a":', 'application/json');
      // Broken forms: no boundary, cut in the middle, a part without a name.
      const cut = multipart({ title: 'Manuel' }, { image1: jpeg, csv_file: jpeg });
      add(full, 'formulaire sans délimiteur', url(), cut.body, 'multipart/form-data');
      add(full, 'formulaire coupé', url(), cut.body.subarray(0, cut.body.length / 2), cut.type);
      add(
        full,
        'partie sans nom',
        url(),
        `--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n`,
        'multipart/form-data; boundary=b',
      );
      add(full, '5 000 niveaux', url(), deepArray, 'application/json');
    }
  }

  // The route table itself, documented or not (wildcards, plans and payments nobody serves
  // yet): every method on every entry, by everyone, with hostile segments in turn.
  const tableValues = ['99999999999', 'a%00b', '%ZZ', '-1', '1e308', `${'x'.repeat(150)}%01`];
  let turn = 0;
  for (const entry of routeTable)
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
      for (const who of [visitor, members, administrator]) {
        const value = tableValues[turn++ % tableValues.length]!;
        const path = entry.path.replace(/:\w+/g, value).replace('*', `${value}/${value}`);
        cases.push({
          method,
          url: `${stack.url('gateway')}/api${path}`,
          who,
          what: `table des routes ${entry.path}`,
          ...(method === 'GET' ? {} : { body: turn % 2 ? '{"a":' : deepArray, type: 'application/json' }),
        });
      }

  // What Node's parser refuses before any route: a 1 MB query string, 20 KB of headers.
  for (const who of [visitor, members, administrator]) {
    cases.push({ method: 'GET', url: `${stack.url('gateway')}/api/books?query=${megabyte}`, who, what: 'URL de 1 Mo' });
    cases.push({
      method: 'GET',
      url: `${stack.url('gateway')}/api/books`,
      who,
      what: 'en-têtes de 20 Ko',
      headers: { 'x-fuzz': 'x'.repeat(20_000) },
    });
  }

  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let next = 0;
  async function worker() {
    while (next < cases.length) {
      const c = cases[next++]!;
      let res: Response;
      let text: string;
      try {
        res = await fetch(c.url, {
          method: c.method,
          headers: {
            ...c.headers,
            ...(c.type ? { 'content-type': c.type } : {}),
            ...(c.who.token ? { authorization: `Bearer ${c.who.token}` } : {}),
          },
          ...(c.body !== undefined ? { body: c.body } : {}),
        });
        // The live stream (GET /api/messages/stream) never ends by itself: its opening is the answer.
        if (res.ok && res.headers.get('content-type')?.startsWith('text/event-stream')) {
          await res.body?.cancel();
          text = '';
        } else text = await res.text();
      } catch (err) {
        // A connection cut without an answer is no better than a 5xx.
        failures.push(
          `${c.method} ${c.url.slice(stack.url('gateway').length, 140)} [${c.what}, ${c.who.name}] sans réponse : ${(err as Error).cause ?? err}`,
        );
        continue;
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const where = `${res.status} ${c.method} ${c.url.slice(stack.url('gateway').length, 140)} [${c.what}, ${c.who.name}]`;
      if (res.status >= 500) failures.push(`${where} ${text.slice(0, 200)}`);
      else if (res.status >= 400) {
        let body: { message?: unknown } | undefined;
        try {
          body = JSON.parse(text);
        } catch {}
        if (!res.headers.get('content-type')?.startsWith('application/json') || typeof body?.message !== 'string')
          failures.push(`${where} réponse d'erreur non JSON : ${text.slice(0, 200)}`);
        else if (english.test(text)) failures.push(`${where} réponse en anglais : ${text.slice(0, 200)}`);
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  console.log(`fuzz: ${cases.length} requests in ${seconds} s; ${counts.join(', ')}`);
  if (failures.length) console.log(failures.slice(0, 400).join('\n'));
  expect(cases.length).toBeGreaterThan(2000);
  // The input reached the services' rules, not only the gateway's doors.
  expect(statuses.get(422)).toBeGreaterThan(500);
  expect(failures).toEqual([]);
}, 170_000);

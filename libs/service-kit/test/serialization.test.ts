import { type Book, bookListPageSchema, messages } from '@cartable/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checksResponses, createHttpApp } from '../src/index.ts';

/**
 * Answers written by fast-json-stringify from the routes' zod schemas (src/serialization.ts):
 * the same bytes zod's check-then-stringify wrote, nothing undeclared leaves, and a broken answer
 * is a 500 with the French message, with or without the contract check.
 */
const book = (id: number, extra: Record<string, unknown> = {}): Book & Record<string, unknown> => ({
  id,
  title: 'Mathématiques 6e « Excellence » \u2028 \\ "',
  author: 'Collectif',
  isbn: id % 2 ? '978-2-7531-0000-1' : null,
  description: null,
  publisher: 'EDICEF',
  publication_year: id % 3 ? 2021 : null,
  condition: 'bon',
  condition_label: 'Bon état',
  condition_flags: ['annotated' as const],
  price: 2500,
  status: 'disponible',
  status_label: 'Disponible',
  is_negociable: true,
  is_negotiable: true,
  is_exchange_possible: false,
  city: id % 2 ? { id: 1, name: 'Libreville', province: 'Estuaire' } : null,
  city_id: id % 2 ? 1 : null,
  category: { id: 29, name: 'Mathématiques' },
  categories: [{ id: 29, name: 'Mathématiques' }],
  category_ids: [29, 7],
  image1: null,
  image2: null,
  image3: null,
  thumbnail: null,
  images: [{ slot: 1, url: '/media/a.webp', thumbnail_url: '/media/a-t.webp' }],
  user_id: '6f1c1f4e-2a7b-4b8f-9a55-0b7f1e2d3c4a',
  views: 3,
  created_at: '2026-09-01T08:00:00.000Z',
  updated_at: '2026-09-01T08:00:00.000Z',
  hidden: false,
  hidden_at: null,
  hidden_reason: null,
  lot:
    id % 2
      ? null
      : { items: [{ title: 'Lecture', author: 'X', publisher: null, year: null, isbn: null, subject: null }] },
  ...extra,
});

const page = {
  data: [book(1), book(2, { password_hash: 'secret' }), book(3, { sponsored: true })],
  total: 3,
  per_page: 12,
  current_page: 1,
  last_page: 1,
  interpreted: { level: null, subject: { name: 'Mathématiques', category_ids: [29] }, text: '' },
  did_you_mean: null,
  internal: { sql: 'select 1' },
};

function app(checkResponses: boolean) {
  const a = createHttpApp({ name: 'test', logger: false, checkResponses });
  a.get('/page', { schema: { response: { 200: bookListPageSchema } } }, async () => page);
  a.get(
    '/defaults',
    { schema: { response: { 200: z.object({ hidden: z.boolean().default(false), n: z.number().int().nullable() }) } } },
    async () => ({ n: null }),
  );
  a.get(
    '/broken',
    { schema: { response: { 200: z.object({ id: z.number().int(), name: z.string() }) } } },
    async () => ({
      id: 1,
    }),
  );
  a.get('/wrong-type', { schema: { response: { 200: z.object({ id: z.number().int() }) } } }, async () => ({
    id: 'abc',
  }));
  return a;
}

describe.each([true, false])('answers written from the zod schema (contract check %s)', (check) => {
  it('writes what zod wrote, without the undeclared fields', async () => {
    const res = await app(check).inject({ method: 'GET', url: '/page' });
    expect(res.statusCode).toBe(200);
    // The same fields and values (the order of keys may differ).
    expect(res.json()).toEqual(JSON.parse(JSON.stringify(z.encode(bookListPageSchema, page as never))));
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('select 1');
    expect(res.json().data[2].sponsored).toBe(true);
  });

  it('writes a default the handler left out, where the contract is not checked', async () => {
    // zod's check wants the field written (as zod's serializer did); production is lenient.
    const res = await app(check).inject({ method: 'GET', url: '/defaults' });
    if (check) expect(res.statusCode).toBe(500);
    else expect(res.json()).toEqual({ hidden: false, n: null });
  });

  it('answers 500 in French when a required field is missing', async () => {
    const res = await app(check).inject({ method: 'GET', url: '/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toBe(messages.internal);
  });
});

describe('the contract check', () => {
  it('refuses an answer of the wrong type where it runs', async () => {
    expect((await app(true).inject({ method: 'GET', url: '/wrong-type' })).statusCode).toBe(500);
  });

  it('runs everywhere but in production, unless CHECK_RESPONSES says', () => {
    expect(checksResponses({ NODE_ENV: 'test', CHECK_RESPONSES: undefined })).toBe(true);
    expect(checksResponses({ NODE_ENV: 'development', CHECK_RESPONSES: undefined })).toBe(true);
    expect(checksResponses({ NODE_ENV: 'production', CHECK_RESPONSES: undefined })).toBe(false);
    expect(checksResponses({ NODE_ENV: 'production', CHECK_RESPONSES: true })).toBe(true);
    expect(checksResponses({ NODE_ENV: 'test', CHECK_RESPONSES: false })).toBe(false);
  });
});

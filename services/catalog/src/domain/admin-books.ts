import type { AdminBook, AdminBookPage, adminBookListQuerySchema, BookModerationAction } from '@cartable/contracts';
import { type Db, recordEvent, type Storage } from '@cartable/service-kit';
import { and, asc, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { books, sellers } from '../db/schema.ts';
import type { CategoryView } from '../modules/taxonomy/domain/category-store.ts';
import { findBookRows, toBookDtos } from './books.ts';
import { webSearchQuery } from './search.ts';

export type AdminBookQuery = z.output<typeof adminBookListQuerySchema>;

/** `%`, `_` and `\` typed by the moderator are letters, not LIKE wildcards. */
const likeEscape = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The back office's filters: every book (sold and hidden too). The text matches title or author
 * anywhere in a word (trigram indexes serve `like`), the French full-text vector, or the ISBN.
 */
export function adminBookConditions(query: AdminBookQuery, view: CategoryView): SQL[] {
  const conditions: SQL[] = [];
  if (query.search) {
    const contains = sql`'%' || cartable_unaccent(lower(${likeEscape(query.search)})) || '%'`;
    const compactIsbn = query.search.replace(/[-\s]/g, '');
    const isbn = /^\d{9,13}[\dXx]?$/.test(compactIsbn)
      ? sql` or replace(${books.isbn}, '-', '') = ${compactIsbn}`
      : sql``;
    conditions.push(
      sql`(cartable_unaccent(lower(${books.title})) like ${contains} or cartable_unaccent(lower(${books.author})) like ${contains} or ${books.search} @@ ${webSearchQuery(query.search)}${isbn})`,
    );
  }
  if (query.status) conditions.push(eq(books.status, query.status));
  if (query.hidden === true) conditions.push(isNotNull(books.hiddenAt));
  if (query.hidden === false) conditions.push(isNull(books.hiddenAt));
  if (query.city_id) conditions.push(eq(books.cityId, query.city_id));
  if (query.owner_id) conditions.push(eq(books.userId, query.owner_id));
  if (query.category_id) {
    // The category and what it wholly contains, as the public catalogue filters.
    const ids = view.graph.has(query.category_id) ? view.graph.within(query.category_id) : [];
    conditions.push(ids.length ? sql`${books.categoryIds} && ${`{${ids.join(',')}}`}::integer[]` : sql`false`);
  }
  return conditions;
}

function adminOrdering(query: AdminBookQuery): SQL[] {
  const dir = (column: SQL | AnyPgColumn) => (query.sort_direction === 'asc' ? asc(column) : desc(column));
  switch (query.sort_by) {
    case 'price':
      return [dir(books.price), dir(books.id)];
    case 'title':
      return [dir(sql`lower(${books.title})`), dir(books.id)];
    case 'views':
      return [dir(books.views), dir(books.id)];
    default:
      return [dir(books.createdAt), dir(books.id)];
  }
}

/** Books as the back office shows them: the public Book plus its owner from the sellers projection. */
export async function toAdminBooks(db: Db, storage: Storage, view: CategoryView, ids: number[]): Promise<AdminBook[]> {
  if (!ids.length) return [];
  const [rows, owners] = await Promise.all([
    findBookRows(db, ids),
    db
      .select({ id: sellers.userId, name: sellers.name, username: sellers.username, email: sellers.email })
      .from(sellers)
      .where(inArray(sellers.userId, db.select({ id: books.userId }).from(books).where(inArray(books.id, ids)))),
  ]);
  const ownerOf = new Map(owners.map((o) => [o.id, o]));
  return (await toBookDtos(db, storage, view, rows)).map((book) => ({
    ...book,
    owner: ownerOf.get(book.user_id) ?? null,
  }));
}

/**
 * GET /admin/books: one page of ids read off an index in the chosen order (created_at: the
 * books_created_idx; owner, city, hidden: their own indexes), the exact total beside it.
 */
export async function listAdminBooks(
  db: Db,
  storage: Storage,
  view: CategoryView,
  query: AdminBookQuery,
): Promise<AdminBookPage> {
  const where = and(...adminBookConditions(query, view));
  const [page, [counted]] = await Promise.all([
    db
      .select({ id: books.id })
      .from(books)
      .where(where)
      .orderBy(...adminOrdering(query))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db.select({ total: sql<number>`count(*)::int` }).from(books).where(where),
  ]);
  const total = counted?.total ?? 0;
  return {
    data: await toAdminBooks(
      db,
      storage,
      view,
      page.map((r) => r.id),
    ),
    meta: {
      current_page: query.page,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      total,
      per_page: query.per_page,
    },
  };
}

/** The moderation event: the owner is told by e-mail, with the reason. */
export function recordModeration(
  tx: Db,
  book: { id: number; userId: string; title: string },
  action: BookModerationAction,
  moderatorId: string,
  reason: string | null,
  status?: string,
) {
  return recordEvent(tx, 'catalog.book.moderated', {
    book_id: book.id,
    owner_id: book.userId,
    title: book.title,
    action,
    ...(status ? { status } : {}),
    reason,
    moderator_id: moderatorId,
    at: new Date().toISOString(),
  });
}

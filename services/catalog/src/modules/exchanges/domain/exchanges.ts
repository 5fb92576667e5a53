import {
  conditionLabels,
  EXCHANGE_WISHES_MAX,
  type ExchangeOverview,
  type ExchangeSuggestion,
  type ExchangeWish,
  exchangeSuggestionStatusLabels,
  type exchangeWishRequestSchema,
  exchangeMessages as m,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  isUniqueViolation,
  notFound,
  type Storage,
  startPeriodic,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { itemTitles } from '../../class-lists/index.ts';
import { exchangeOffersOf, listingSummaries } from '../../listings/index.ts';
import { memberCards, standingBlocks } from '../../members/index.ts';
import { type CategoryStore, existingCategoryIds, provinceNames, townNames } from '../../taxonomy/index.ts';
import * as queries from '../db/queries.ts';
import { exchangeAccepted, exchangeSuggested } from '../events.ts';
import {
  findExchanges,
  type MatchedSuggestion,
  type MatcherMember,
  type MatcherOffer,
  type MatcherWish,
} from './matcher.ts';

/** A leg as stored: ids only; names and titles are read when shown. */
export interface StoredLeg {
  from: string;
  to: string;
  book_id: number;
  book_title: string;
  wish: string;
}

/** Exchange matching (services/catalog/API.md « Exchange matching »): wishes, pairs and cycles of three. */
export function exchangeService(uow: UnitOfWork, storage: Storage, categories: CategoryStore) {
  const db = uow.db;

  async function wishDtos(rows: queries.WishRow[]): Promise<ExchangeWish[]> {
    if (!rows.length) return [];
    const [items, view] = await Promise.all([
      itemTitles(
        db,
        rows.flatMap((r) => (r.classListItemId ? [r.classListItemId] : [])),
      ),
      categories.view(),
    ]);
    const named = (id: number | null) => {
      const node = id !== null ? view.graph.nodes.get(id) : undefined;
      return node ? { id: node.id, name: node.name } : null;
    };
    return rows.map((r) => {
      const level = named(r.levelId);
      const subject = named(r.subjectId);
      const listed = r.classListItemId ? items.get(r.classListItemId) : undefined;
      return {
        id: r.id,
        kind: r.classListItemId ? 'item' : 'subject',
        label: listed?.title ?? [level?.name, subject?.name].filter(Boolean).join(' · '),
        class_list_item_id: r.classListItemId,
        level,
        subject,
        created_at: r.createdAt.toISOString(),
      };
    });
  }

  async function suggestionDtos(rows: queries.SuggestionRow[], viewer: string): Promise<ExchangeSuggestion[]> {
    if (!rows.length) return [];
    const [people, listed] = await Promise.all([
      memberCards(db, [...new Set(rows.flatMap((r) => r.memberIds))]),
      listingSummaries(db, [...new Set(rows.flatMap((r) => r.bookIds))]),
    ]);
    const towns = await townNames(
      db,
      [...people.values()].flatMap((p) => (p.cityId ? [p.cityId] : [])),
    );
    const who = (id: string) => {
      const p = people.get(id);
      return { id, name: p?.name ?? 'Membre', city: p?.cityId ? (towns.get(p.cityId)?.name ?? null) : null };
    };
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      status_label: exchangeSuggestionStatusLabels[r.status],
      area: r.area,
      legs: r.legs.map((l) => {
        const b = listed.get(l.book_id);
        const other = l.from === viewer ? l.to : l.to === viewer ? l.from : null;
        return {
          from: who(l.from),
          to: who(l.to),
          book: {
            id: l.book_id,
            title: b?.title ?? l.book_title,
            price: b?.price ?? 0,
            condition_label: b ? conditionLabels[b.condition] : '',
            thumbnail: b?.thumbnailKey ? storage.url(b.thumbnailKey) : null,
          },
          wish: l.wish,
          // The talk about this listing, between its giver and its receiver, once all accepted.
          conversation_url: r.status === 'accepted' && other ? `/messages/${l.book_id}/${other}` : null,
        };
      }),
      accepted_by: r.acceptedBy,
      my_answer: r.acceptedBy.includes(viewer) ? 'accepted' : r.declinedBy === viewer ? 'declined' : null,
      created_at: r.createdAt.toISOString(),
    }));
  }

  async function storeSuggestions(t: Transaction, found: MatchedSuggestion[]) {
    const [titles, towns, provinces] = await Promise.all([
      listingSummaries(t.db, [...new Set(found.flatMap((s) => s.legs.map((l) => l.bookId)))]),
      townNames(t.db, [...new Set(found.flatMap((s) => (s.cityId ? [s.cityId] : [])))]),
      provinceNames(t.db, [...new Set(found.flatMap((s) => (s.provinceId ? [s.provinceId] : [])))]),
    ]);
    for (const s of found) {
      const legs: StoredLeg[] = s.legs.map((l) => ({
        from: l.from,
        to: l.to,
        book_id: l.bookId,
        book_title: titles.get(l.bookId)?.title ?? 'Manuel',
        wish: l.wishLabel,
      }));
      const area =
        (s.cityId ? towns.get(s.cityId)?.name : undefined) ??
        (s.provinceId ? provinces.get(s.provinceId) : undefined) ??
        'Gabon';
      const row = await queries.insertSuggestion(t.db, {
        kind: s.kind,
        signature: s.signature,
        memberIds: [...new Set(s.legs.flatMap((l) => [l.from, l.to]))],
        bookIds: s.legs.map((l) => l.bookId),
        legs,
        area,
      });
      if (row) await exchangeSuggested(t, row);
    }
  }

  /**
   * Reads the wishes, the listings open to exchange of the members who wish for something, and
   * where everyone is; finds pairs and cycles; stores the new suggestions with their
   * catalog.exchange.suggested events. Open suggestions whose listings are no longer available,
   * or that nobody finished answering in time, lapse first. Returns how many suggestions were
   * made, or null when another run (another replica) holds the lock.
   */
  function runMatcher(now = new Date()): Promise<number | null> {
    return uow.run(async (t) => {
      if (!(await queries.tryMatcherLock(t.db))) return null;
      await queries.lapseSuggestions(t.db, now);
      const wishRows = await queries.matcherWishes(t.db);
      if (!wishRows.length) return 0;
      const [offerRows, memberRows] = await Promise.all([queries.matcherOffers(t.db), queries.matcherMembers(t.db)]);
      // A member who gave no town is placed where their listings are.
      const listedAt = new Map<string, { cityId: number | null; provinceId: number | null }>();
      for (const o of offerRows)
        if (!listedAt.has(o.user_id)) listedAt.set(o.user_id, { cityId: o.city_id, provinceId: o.province_id });
      const members: MatcherMember[] = memberRows.map((r) => ({
        id: r.id,
        cityId: r.city_id ?? listedAt.get(r.id)?.cityId ?? null,
        provinceId: r.province_id ?? listedAt.get(r.id)?.provinceId ?? null,
      }));
      const offers: MatcherOffer[] = offerRows.map((o) => ({
        bookId: o.id,
        userId: o.user_id,
        titleKey: o.title_key,
        isbnKey: o.isbn_key,
        categoryIds: o.category_ids,
        cityId: o.city_id,
        provinceId: o.province_id,
      }));
      const wishes: MatcherWish[] = wishRows.map((w) => ({
        id: w.id,
        userId: w.user_id,
        label: w.label ?? 'Manuel',
        titleKey: w.title_key,
        isbnKey: w.isbn,
        levelId: w.level_id,
        subjectId: w.subject_id,
      }));
      const existing = await queries.liveSignatures(t.db);
      const refused = new Set(existing.map((e) => e.signature));
      const taken = new Set(existing.filter((e) => e.status === 'open').flatMap((e) => e.bookIds));
      const blocks = new Set(
        (await standingBlocks(t.db)).flatMap((b) => [`${b.blockerId}|${b.blockedId}`, `${b.blockedId}|${b.blockerId}`]),
      );
      const found = findExchanges(members, offers, wishes, {
        taken,
        refused,
        blocked: (a, b) => blocks.has(`${a}|${b}`),
      });
      if (!found.length) return 0;
      await storeSuggestions(t, found);
      return found.length;
    });
  }

  async function suggestionFor(t: { db: Db }, id: string, userId: string, lock = false) {
    const row = await queries.suggestionFor(t.db, id, userId, lock);
    if (!row) throw notFound(m.suggestionNotFound);
    return row;
  }

  return {
    runMatcher,

    async addWish(userId: string, request: z.infer<typeof exchangeWishRequestSchema>): Promise<ExchangeWish> {
      if ((await queries.wishCountOf(db, userId)) >= EXCHANGE_WISHES_MAX)
        throw unprocessable({ wish: [m.tooManyWishes] }, m.tooManyWishes);
      let values: Parameters<typeof queries.insertWish>[1];
      if ('class_list_item_id' in request) {
        if (!(await itemTitles(db, [request.class_list_item_id], true)).size)
          throw unprocessable({ class_list_item_id: [m.itemNotFound] }, m.itemNotFound);
        values = { userId, classListItemId: request.class_list_item_id };
      } else {
        const ids = new Set(await existingCategoryIds(db, [request.level_id, request.subject_id]));
        if (!ids.has(request.level_id)) throw unprocessable({ level_id: [m.levelNotFound] }, m.levelNotFound);
        if (!ids.has(request.subject_id)) throw unprocessable({ subject_id: [m.subjectNotFound] }, m.subjectNotFound);
        values = { userId, levelId: request.level_id, subjectId: request.subject_id };
      }
      try {
        return (await wishDtos([await queries.insertWish(db, values)]))[0]!;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(m.wishDuplicate);
        throw err;
      }
    },

    async removeWish(userId: string, id: number) {
      if (!(await queries.deleteWish(db, userId, id))) throw notFound(m.wishNotFound);
    },

    /** Accepts; the last acceptance opens the conversations (catalog.exchange.accepted). */
    async accept(id: string, userId: string) {
      const { row, everyone } = await uow.run(async (t) => {
        await queries.lapseSuggestions(t.db, new Date());
        const row = await suggestionFor(t, id, userId, true);
        if (row.status !== 'open') throw conflict(m.notOpen);
        if (row.acceptedBy.includes(userId)) throw conflict(m.alreadyAnswered);
        const acceptedBy = [...row.acceptedBy, userId];
        const everyone = row.memberIds.every((member) => acceptedBy.includes(member));
        const updated = await queries.updateSuggestion(t.db, row.id, {
          acceptedBy,
          status: everyone ? 'accepted' : 'open',
        });
        if (everyone) await exchangeAccepted(t, updated);
        return { row: updated, everyone };
      });
      return { suggestion: (await suggestionDtos([row], userId))[0]!, everyone };
    },

    /** Declines for everyone: the same legs are never suggested again. */
    async decline(id: string, userId: string) {
      const updated = await uow.run(async (t) => {
        const row = await suggestionFor(t, id, userId, true);
        if (row.status !== 'open') throw conflict(m.notOpen);
        return queries.updateSuggestion(t.db, row.id, { status: 'declined', declinedBy: userId });
      });
      return (await suggestionDtos([updated], userId))[0]!;
    },

    /** GET /exchanges: what the member offers, looks for, and the suggestions made to them. */
    async overview(userId: string): Promise<ExchangeOverview> {
      const [offers, wishes, suggestions] = await Promise.all([
        exchangeOffersOf(db, userId),
        queries.wishesOf(db, userId),
        queries.suggestionsOf(db, userId),
      ]);
      return { offers, wishes: await wishDtos(wishes), suggestions: await suggestionDtos(suggestions, userId) };
    },
  };
}
export type ExchangeService = ReturnType<typeof exchangeService>;

/** Runs the matcher every `intervalMs` (listings change all day; a new wish also runs it at once). Returns its stop. */
export const startExchangeMatcher = (
  exchanges: Pick<ExchangeService, 'runMatcher'>,
  log: Pick<Logger, 'info' | 'warn'>,
  intervalMs: number,
) =>
  startPeriodic(() => exchanges.runMatcher(), {
    intervalMs,
    log,
    failure: 'exchange matcher failed',
    report: (made) => {
      if (made) log.info({ made }, 'exchange suggestions');
    },
  });

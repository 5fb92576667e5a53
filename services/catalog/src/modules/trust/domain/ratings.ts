import { dealMessages, RATINGS_PER_PAGE } from '@cartable/contracts';
import {
  conflict,
  forbidden,
  invalid,
  isUniqueViolation,
  notFound,
  type Storage,
  type Transaction,
  type UnitOfWork,
  unprocessable,
} from '@cartable/service-kit';
import { lockMember, ratingOf, setRating } from '../../members/index.ts';
import * as queries from '../db/queries.ts';
import { sellerRated } from '../events.ts';
import { RATING_EDIT_MS, reviewDtos } from './deals.ts';
import { ratingOfCounted } from './repeat-deals.ts';

const d = dealMessages;

/**
 * Ratings after a confirmed deal (SPEC.md section 3 « Review »; services/catalog/API.md
 * « Ratings »): each party rates the other once, editable for 7 days. The member's aggregate is
 * written in the review's transaction (in the members projection, under the member's lock, taken
 * first so two reviews of one member written at once count both) and announced as
 * catalog.seller.rated.
 */
export function ratingService(uow: UnitOfWork, storage: Storage) {
  const db = uow.db;
  const one = async (row: queries.ReviewRow) => (await reviewDtos(db, storage, [row]))[0]!;

  async function refreshRating(t: Transaction, userId: string, review?: Parameters<typeof sellerRated>[4]) {
    // Repeated deals between the same two members count once per window (repeat-deals.ts).
    const rating = ratingOfCounted(await queries.ratingsReceived(t.db, userId));
    await sellerRated(t, userId, rating, await setRating(t.db, userId, rating), review);
  }

  async function page(filter: { fromUserId?: string; toUserId?: string }, pageNumber: number) {
    const { rows, total, average } = await queries.reviewPage(db, filter, {
      limit: RATINGS_PER_PAGE,
      offset: (pageNumber - 1) * RATINGS_PER_PAGE,
    });
    return {
      data: await reviewDtos(db, storage, rows),
      summary: { average, count: total },
      meta: {
        current_page: pageNumber,
        last_page: Math.max(1, Math.ceil(total / RATINGS_PER_PAGE)),
        total,
        per_page: RATINGS_PER_PAGE,
      },
    };
  }

  /**
   * The reviews a member received, with the aggregate as the book page shows it (repeated deals
   * with one member counted once per window).
   */
  async function received(userId: string, pageNumber: number) {
    const [result, rating] = await Promise.all([page({ toUserId: userId }, pageNumber), ratingOf(db, userId)]);
    return rating ? { ...result, summary: rating } : result;
  }

  return {
    async rate(
      me: string,
      body: { transaction_id: string; to_user_id?: string | undefined; rating: number; comment: string },
    ) {
      try {
        const created = await uow.run(async (t) => {
          const deal = await queries.dealById(t.db, body.transaction_id);
          if (!deal) throw notFound(d.notFound);
          if (deal.sellerId !== me && deal.buyerId !== me) throw forbidden(d.ratingThirdParty);
          const other = deal.sellerId === me ? deal.buyerId : deal.sellerId;
          if (body.to_user_id === me || other === me) throw unprocessable({ to_user_id: [d.ratingSelf] }, d.ratingSelf);
          if (body.to_user_id !== undefined && body.to_user_id !== other) throw forbidden(d.ratingThirdParty);
          if (deal.status !== 'confirmed') throw invalid(d.ratingNotConfirmed);
          await lockMember(t.db, other);
          if (await queries.reviewExists(t.db, deal.id, me)) throw conflict(d.ratingTwice);
          const row = await queries.insertReview(t.db, {
            transactionId: deal.id,
            fromUserId: me,
            toUserId: other,
            rating: body.rating,
            comment: body.comment,
          });
          await refreshRating(t, other, {
            transaction_id: deal.id,
            from_user_id: me,
            rating: body.rating,
            book_title: deal.bookTitle,
          });
          return row;
        });
        return one(created);
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(d.ratingTwice);
        throw err;
      }
    },

    async edit(me: string, id: string, body: { rating: number; comment: string }) {
      const updated = await uow.run(async (t) => {
        const review = await queries.reviewById(t.db, id);
        if (!review) throw notFound(d.ratingNotFound);
        if (review.fromUserId !== me) throw forbidden(d.ratingAuthorOnly);
        if (Date.now() - review.createdAt.getTime() > RATING_EDIT_MS) throw forbidden(d.ratingEditExpired);
        await lockMember(t.db, review.toUserId);
        const row = await queries.updateReview(t.db, review.id, body);
        await refreshRating(t, review.toUserId);
        return row;
      });
      return one(updated);
    },

    /** Given: every review, with their plain average; received: as everyone reads them. */
    mine: (me: string, direction: 'given' | 'received', pageNumber: number) =>
      direction === 'given' ? page({ fromUserId: me }, pageNumber) : received(me, pageNumber),

    received,
  };
}
export type RatingService = ReturnType<typeof ratingService>;

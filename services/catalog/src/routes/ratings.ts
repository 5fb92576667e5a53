import {
  createRatingRequestSchema,
  dealMessages,
  myRatingsQuerySchema,
  RATINGS_PER_PAGE,
  ratingListSchema,
  ratingParamsSchema,
  ratingResponseSchema,
  updateRatingRequestSchema,
  userRatingsParamsSchema,
  userRatingsQuerySchema,
} from '@cartable/contracts';
import { HttpError, isUniqueViolation } from '@cartable/service-kit';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviews, sellers, transactions } from '../db/schema.ts';
import type { CatalogDeps } from '../deps.ts';
import { lockRatedMember, RATING_EDIT_MS, type ReviewRow, refreshRating, toReviewDtos } from '../domain/deals.ts';

const d = dealMessages;
const tags = ['ratings'];
const security = [{ bearer: [] }];

/**
 * Ratings after a confirmed deal (SPEC.md section 3 « Review »; services/catalog/API.md
 * "Ratings"): each party rates the other once, editable for 7 days. The member's aggregate lives
 * in their sellers row, written in the review's transaction, and is announced as catalog.seller.rated.
 */
export const ratingRoutes: FastifyPluginAsyncZod<CatalogDeps> = async (app, deps) => {
  const { db, storage, guards, relay } = deps;

  const one = async (row: ReviewRow) => (await toReviewDtos(db, storage, [row]))[0]!;

  async function page(where: SQL, pageNumber: number) {
    const [rows, [agg]] = await Promise.all([
      db
        .select()
        .from(reviews)
        .where(where)
        .orderBy(desc(reviews.createdAt), desc(reviews.id))
        .limit(RATINGS_PER_PAGE)
        .offset((pageNumber - 1) * RATINGS_PER_PAGE),
      db
        .select({
          total: sql<number>`count(*)::int`,
          average: sql<number>`coalesce(round(avg(${reviews.rating})::numeric, 2), 0)::float8`,
        })
        .from(reviews)
        .where(where),
    ]);
    const total = agg?.total ?? 0;
    return {
      data: await toReviewDtos(db, storage, rows),
      summary: { average: agg?.average ?? 0, count: total },
      meta: {
        current_page: pageNumber,
        last_page: Math.max(1, Math.ceil(total / RATINGS_PER_PAGE)),
        total,
        per_page: RATINGS_PER_PAGE,
      },
    };
  }

  app.post(
    '/ratings',
    {
      preHandler: guards.requireVerified,
      schema: { tags, security, body: createRatingRequestSchema, response: { 201: ratingResponseSchema } },
    },
    async (request, reply) => {
      const me = request.claims!.sub;
      const body = request.body;
      let created: ReviewRow;
      try {
        created = await db.transaction(async (tx) => {
          const [deal] = await tx.select().from(transactions).where(eq(transactions.id, body.transaction_id));
          if (!deal) throw new HttpError(404, d.notFound);
          if (deal.sellerId !== me && deal.buyerId !== me) throw new HttpError(403, d.ratingThirdParty);
          const other = deal.sellerId === me ? deal.buyerId : deal.sellerId;
          if (body.to_user_id === me || other === me)
            throw new HttpError(422, d.ratingSelf, { to_user_id: [d.ratingSelf] });
          if (body.to_user_id !== undefined && body.to_user_id !== other) throw new HttpError(403, d.ratingThirdParty);
          if (deal.status !== 'confirmed') throw new HttpError(422, d.ratingNotConfirmed);
          await lockRatedMember(tx, other);
          const [already] = await tx
            .select({ id: reviews.id })
            .from(reviews)
            .where(and(eq(reviews.transactionId, deal.id), eq(reviews.fromUserId, me)));
          if (already) throw new HttpError(409, d.ratingTwice);
          const [row] = await tx
            .insert(reviews)
            .values({
              transactionId: deal.id,
              fromUserId: me,
              toUserId: other,
              rating: body.rating,
              comment: body.comment,
            })
            .returning();
          await refreshRating(tx, other);
          return row!;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new HttpError(409, d.ratingTwice);
        throw err;
      }
      relay.kick();
      return reply.status(201).send({ message: d.rated, rating: await one(created) });
    },
  );

  app.put(
    '/ratings/:id',
    {
      preHandler: guards.requireVerified,
      schema: {
        tags,
        security,
        params: ratingParamsSchema,
        body: updateRatingRequestSchema,
        response: { 200: ratingResponseSchema },
      },
    },
    async (request) => {
      const me = request.claims!.sub;
      const updated = await db.transaction(async (tx) => {
        const [review] = await tx.select().from(reviews).where(eq(reviews.id, request.params.id));
        if (!review) throw new HttpError(404, d.ratingNotFound);
        if (review.fromUserId !== me) throw new HttpError(403, d.ratingAuthorOnly);
        if (Date.now() - review.createdAt.getTime() > RATING_EDIT_MS) throw new HttpError(403, d.ratingEditExpired);
        await lockRatedMember(tx, review.toUserId);
        const [row] = await tx
          .update(reviews)
          .set({ rating: request.body.rating, comment: request.body.comment, updatedAt: new Date() })
          .where(eq(reviews.id, review.id))
          .returning();
        await refreshRating(tx, review.toUserId);
        return row!;
      });
      relay.kick();
      return { message: d.ratingUpdated, rating: await one(updated) };
    },
  );

  app.get(
    '/ratings/mine',
    {
      preHandler: guards.requireUser,
      schema: { tags, security, querystring: myRatingsQuerySchema, response: { 200: ratingListSchema } },
    },
    async (request) => {
      const me = request.claims!.sub;
      const { direction, page: pageNumber } = request.query;
      return page(direction === 'given' ? eq(reviews.fromUserId, me) : eq(reviews.toUserId, me), pageNumber);
    },
  );

  // Public: the reviews a member received, for their public profile (/profile/{userId}).
  app.get(
    '/users/:userId/ratings',
    {
      schema: {
        tags,
        params: userRatingsParamsSchema,
        querystring: userRatingsQuerySchema,
        response: { 200: ratingListSchema },
      },
    },
    async (request) => {
      const { userId } = request.params;
      const result = await page(eq(reviews.toUserId, userId), request.query.page);
      // The aggregate as the seller's row holds it (what the book page shows).
      const [seller] = await db
        .select({ average: sellers.ratingAverage, count: sellers.ratingCount })
        .from(sellers)
        .where(eq(sellers.userId, userId));
      return seller ? { ...result, summary: seller } : result;
    },
  );
};

import {
  type AccessClaims,
  type EventData,
  type PageMeta,
  REPORT_REASON_LABELS,
  type Report,
  type ReportDecision,
  type ReportReason,
  type ReportStatus,
  type ReportTargetType,
} from '@cartable/contracts';
import {
  conflict,
  type Db,
  isUniqueViolation,
  notFound,
  type OutboxRelay,
  recordEvent,
  unprocessable,
} from '@cartable/service-kit';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { findComment, findListedBook, findMember, findMembers } from '../db/queries.ts';
import { reports } from '../db/schema.ts';

type ReportRow = typeof reports.$inferSelect;
interface Context {
  db: Db;
  relay: Pick<OutboxRelay, 'kick'>;
}

export const reportMessages = {
  created: 'Signalement envoyé. Merci, notre équipe va l’examiner.',
  twice: 'Vous avez déjà signalé ce contenu.',
  yourOwn: 'Vous ne pouvez pas signaler votre propre contenu.',
  unknownBook: 'Cette annonce est introuvable.',
  unknownMember: 'Ce membre est introuvable.',
  unknownComment: 'Ce commentaire est introuvable.',
  notFound: 'Ce signalement est introuvable.',
  alreadyHandled: 'Ce signalement a déjà été traité.',
  resolved: 'Signalement traité avec succès',
} as const;
const m = reportMessages;

/** What is reported, as it is now: its label and the member responsible, or a 404. */
async function describeTarget(db: Db, type: Exclude<ReportTargetType, 'message'>, id: string) {
  if (type === 'book') {
    const bookId = Number(id);
    const book = Number.isSafeInteger(bookId) && bookId > 0 ? await findListedBook(db, bookId) : undefined;
    if (!book) throw notFound(m.unknownBook);
    return { label: book.title, ownerId: book.ownerId, id: String(book.id) };
  }
  if (type === 'user') {
    const member = /^[0-9a-f-]{36}$/i.test(id) ? await findMember(db, id) : undefined;
    if (!member) throw notFound(m.unknownMember);
    return { label: member.name, ownerId: member.id, id: member.id };
  }
  const comment = /^[0-9a-f-]{36}$/i.test(id) ? await findComment(db, id) : undefined;
  if (!comment || comment.status === 'rejected') throw notFound(m.unknownComment);
  return { label: comment.content, ownerId: comment.userId, id: comment.id };
}

async function insertReport(db: Db, values: typeof reports.$inferInsert) {
  try {
    const [row] = await db.insert(reports).values(values).returning({ id: reports.id });
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(m.twice);
    throw error;
  }
}

/** POST /reports: a listing, a member or a comment, once per reporter; never one's own. */
export async function reportContent(
  db: Db,
  claims: AccessClaims,
  request: {
    target_type: 'book' | 'user' | 'comment';
    target_id: string;
    reason: ReportReason;
    details?: string | undefined;
  },
) {
  const target = await describeTarget(db, request.target_type, request.target_id);
  if (target.ownerId === claims.sub) throw unprocessable({ target_id: [m.yourOwn] }, m.yourOwn);
  return insertReport(db, {
    reporterId: claims.sub,
    targetType: request.target_type,
    targetId: target.id,
    targetLabel: target.label.slice(0, 500),
    targetOwnerId: target.ownerId,
    reason: request.reason,
    details: request.details || null,
  });
}

/** A message its receiver reported in messaging (which checked it): one report per reporter. */
export async function recordMessageReport(tx: Db, data: EventData<'messaging.message.reported'>) {
  await tx
    .insert(reports)
    .values({
      reporterId: data.reporter_id,
      targetType: 'message',
      targetId: data.message_id,
      targetLabel: data.content.slice(0, 500),
      targetOwnerId: data.sender_id,
      reason: data.reason,
      details: data.details,
      createdAt: new Date(data.reported_at),
    })
    .onConflictDoNothing();
}

async function toReports(db: Db, rows: ReportRow[]): Promise<Report[]> {
  const people = await findMembers(db, [
    ...new Set(rows.flatMap((r) => [r.reporterId, ...(r.targetOwnerId ? [r.targetOwnerId] : [])])),
  ]);
  const names = new Map(people.map((p) => [p.id, p.name]));
  const targets = rows.length
    ? await db
        .select({ type: reports.targetType, id: reports.targetId, n: count() })
        .from(reports)
        .where(
          and(
            eq(reports.status, 'open'),
            inArray(
              reports.targetId,
              rows.map((r) => r.targetId),
            ),
          ),
        )
        .groupBy(reports.targetType, reports.targetId)
    : [];
  const onTarget = new Map(targets.map((t) => [`${t.type}:${t.id}`, t.n]));
  return rows.map((r) => ({
    id: r.id,
    target_type: r.targetType,
    target_id: r.targetId,
    target_label: r.targetLabel,
    target_owner_id: r.targetOwnerId,
    target_owner_name: r.targetOwnerId ? (names.get(r.targetOwnerId) ?? null) : null,
    reason: r.reason,
    details: r.details,
    status: r.status,
    decision: r.decision,
    note: r.note,
    reporter: { id: r.reporterId, name: names.get(r.reporterId) ?? 'Membre' },
    reports_on_target: onTarget.get(`${r.targetType}:${r.targetId}`) ?? 0,
    created_at: r.createdAt.toISOString(),
    handled_at: r.handledAt?.toISOString() ?? null,
  }));
}

/** The queue: open ones first by default, newest first; with the number still open. */
export async function listReports(
  db: Db,
  query: {
    status?: ReportStatus | undefined;
    target_type?: ReportTargetType | undefined;
    page: number;
    per_page: number;
  },
): Promise<{ data: Report[]; meta: PageMeta; open: number }> {
  const where = and(
    query.status ? eq(reports.status, query.status) : undefined,
    query.target_type ? eq(reports.targetType, query.target_type) : undefined,
  );
  const [[total], [open], rows] = await Promise.all([
    db.select({ n: count() }).from(reports).where(where),
    db.select({ n: count() }).from(reports).where(eq(reports.status, 'open')),
    db
      .select()
      .from(reports)
      .where(where)
      .orderBy(sql`${reports.status} = 'open' desc`, desc(reports.createdAt))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
  ]);
  return {
    data: await toReports(db, rows),
    meta: {
      current_page: query.page,
      last_page: Math.max(1, Math.ceil((total?.n ?? 0) / query.per_page)),
      total: total?.n ?? 0,
    },
    open: open?.n ?? 0,
  };
}

export async function findReport(db: Db, id: string) {
  const [row] = await db.select().from(reports).where(eq(reports.id, id));
  if (!row) throw notFound(m.notFound);
  return (await toReports(db, [row]))[0]!;
}

/**
 * An administrator's decision on a report applies to every open report of the same target. The
 * action itself (hiding a listing, rejecting a comment, deactivating an account) is the owning
 * service's call, made by the back office first; a warning is e-mailed to the member from here.
 */
export async function resolveReport(
  { db, relay }: Context,
  claims: AccessClaims,
  id: string,
  decision: ReportDecision,
  note: string | undefined,
) {
  const answer = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(reports).where(eq(reports.id, id)).for('update');
    if (!row) throw notFound(m.notFound);
    if (row.status !== 'open') throw conflict(m.alreadyHandled);
    const resolved = await tx
      .update(reports)
      .set({
        status: decision === 'dismissed' ? 'dismissed' : 'actioned',
        decision,
        note: note || null,
        handledBy: claims.sub,
        handledAt: new Date(),
      })
      .where(
        and(eq(reports.targetType, row.targetType), eq(reports.targetId, row.targetId), eq(reports.status, 'open')),
      )
      .returning({ id: reports.id });
    if (decision === 'warned' && row.targetOwnerId) {
      await recordEvent(tx, 'moderation.member.warned', {
        user_id: row.targetOwnerId,
        reason: REPORT_REASON_LABELS[row.reason],
        target_label: row.targetLabel.slice(0, 200),
        note: note || null,
      });
    }
    return { message: m.resolved, resolved: resolved.length };
  });
  relay.kick();
  return answer;
}

/** Open reports, for the back office's figures. */
export async function openReports(db: Db) {
  const [row] = await db.select({ n: count() }).from(reports).where(eq(reports.status, 'open'));
  return row?.n ?? 0;
}

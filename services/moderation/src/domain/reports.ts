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
import { conflict, type Db, isUniqueViolation, notFound, unprocessable } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';
import { findComment, findListedBook, findMember, findMembers, type NewReport, type ReportRow } from '../db/queries.ts';
import type { ModerationDeps } from '../deps.ts';
import { memberWarned } from '../events/published.ts';

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

async function insertReport(db: Db, values: NewReport) {
  try {
    return await queries.insertReport(db, values);
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
  await queries.insertReportOnce(tx, {
    reporterId: data.reporter_id,
    targetType: 'message',
    targetId: data.message_id,
    targetLabel: data.content.slice(0, 500),
    targetOwnerId: data.sender_id,
    reason: data.reason,
    details: data.details,
    createdAt: new Date(data.reported_at),
  });
}

async function toReports(db: Db, rows: ReportRow[]): Promise<Report[]> {
  const people = await findMembers(db, [
    ...new Set(rows.flatMap((r) => [r.reporterId, ...(r.targetOwnerId ? [r.targetOwnerId] : [])])),
  ]);
  const names = new Map(people.map((p) => [p.id, p.name]));
  const onTarget = await queries.openReportsOnTargets(
    db,
    rows.map((r) => r.targetId),
  );
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
  const { rows, total, open } = await queries.reportPage(db, query);
  return {
    data: await toReports(db, rows),
    meta: {
      current_page: query.page,
      last_page: Math.max(1, Math.ceil(total / query.per_page)),
      total,
    },
    open,
  };
}

export async function findReport(db: Db, id: string) {
  const row = await queries.findReport(db, id);
  if (!row) throw notFound(m.notFound);
  return (await toReports(db, [row]))[0]!;
}

/**
 * An administrator's decision on a report applies to every open report of the same target. The
 * action itself (hiding a listing, rejecting a comment, deactivating an account) is the owning
 * service's call, made by the back office first; a warning is e-mailed to the member from here.
 */
export async function resolveReport(
  { uow }: Pick<ModerationDeps, 'uow'>,
  claims: AccessClaims,
  id: string,
  decision: ReportDecision,
  note: string | undefined,
) {
  return uow.run(async (t) => {
    const row = await queries.lockReport(t.db, id);
    if (!row) throw notFound(m.notFound);
    if (row.status !== 'open') throw conflict(m.alreadyHandled);
    const resolved = await queries.resolveOpenReports(t.db, row, {
      status: decision === 'dismissed' ? 'dismissed' : 'actioned',
      decision,
      note: note || null,
      handledBy: claims.sub,
      handledAt: new Date(),
    });
    if (decision === 'warned' && row.targetOwnerId) {
      await memberWarned(t, {
        userId: row.targetOwnerId,
        reason: REPORT_REASON_LABELS[row.reason],
        targetLabel: row.targetLabel,
        note: note || null,
      });
    }
    return { message: m.resolved, resolved: resolved.length };
  });
}

/** Open reports, for the back office's figures. */
export const openReports = (db: Db) => queries.countOpenReports(db);

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
import { commentModerated, memberWarned, reportDecided } from '../events/published.ts';

export const reportMessages = {
  created: 'Signalement envoyé. Merci, notre équipe va l’examiner.',
  twice: 'Vous avez déjà signalé ce contenu.',
  yourOwn: 'Vous ne pouvez pas signaler votre propre contenu.',
  unknownBook: 'Cette annonce est introuvable.',
  unknownMember: 'Ce membre est introuvable.',
  unknownComment: 'Ce commentaire est introuvable.',
  notFound: 'Ce signalement est introuvable.',
  alreadyHandled: 'Ce signalement a déjà été traité.',
  applying: 'La décision sur ce signalement est déjà en cours d’application.',
  resolved: 'Signalement traité avec succès',
  decided: 'Décision enregistrée : l’action est en cours.',
  cannotHide: 'Ce contenu ne peut pas être masqué.',
  noMember: 'Ce signalement ne désigne aucun membre.',
  notYourself: 'Vous ne pouvez pas désactiver votre propre compte.',
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
 * What a decision asks of whom. Hiding a listing is catalog's, deactivating an account auth's:
 * the reports wait « Action en cours » (`applying`) until that service says it is done. A comment
 * is moderation's own, so it is rejected in the same transaction; a warning is an e-mail
 * (moderation.member.warned); dismissing does nothing.
 */
const appliedElsewhere = (decision: ReportDecision, targetType: ReportTargetType) =>
  decision === 'deactivated' || (decision === 'hidden' && targetType === 'book');

/** The decisions a report of this kind allows, and the reason the member is told where there is one. */
function checkDecision(row: ReportRow, decision: ReportDecision, note: string | undefined, by: string) {
  if (decision === 'hidden' && row.targetType !== 'book' && row.targetType !== 'comment') {
    throw unprocessable({ decision: [m.cannotHide] }, m.cannotHide);
  }
  if ((decision === 'warned' || decision === 'deactivated') && !row.targetOwnerId) {
    throw unprocessable({ decision: [m.noMember] }, m.noMember);
  }
  if (decision === 'deactivated' && row.targetOwnerId === by) {
    throw unprocessable({ decision: [m.notYourself] }, m.notYourself);
  }
  // The same bounds as catalog's and auth's own reasons: the owning service must accept it.
  const min = decision === 'hidden' && row.targetType === 'book' ? 5 : decision === 'deactivated' ? 2 : 0;
  if ((note?.length ?? 0) < min) {
    const message = `Indiquez la raison (au moins ${min} caractères).`;
    throw unprocessable({ note: [message] }, message);
  }
}

/**
 * An administrator's decision on a report, and its action, in one call: it applies to every open
 * report of the same target. Applied here (a comment rejected, a warning, a dismissal), the
 * reports close at once; applied by another service, they record the decision and publish
 * moderation.report.decided in the same transaction, and close when that service answers
 * (`closeAppliedReports`), so no report reads « Traité » while its listing is still public.
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
    if (row.status === 'applying') throw conflict(m.applying);
    if (row.status !== 'open') throw conflict(m.alreadyHandled);
    checkDecision(row, decision, note, claims.sub);
    const elsewhere = appliedElsewhere(decision, row.targetType);
    const status: ReportStatus = decision === 'dismissed' ? 'dismissed' : elsewhere ? 'applying' : 'actioned';
    const resolved = await queries.resolveOpenReports(t.db, row, {
      status,
      decision,
      note: note || null,
      handledBy: claims.sub,
      // Handled once the action is: set by the owning service's answer.
      handledAt: elsewhere ? null : new Date(),
    });
    if (elsewhere) {
      await reportDecided(t, {
        report_ids: resolved.map((r) => r.id),
        decision,
        target_type: row.targetType,
        target_id: row.targetId,
        target_owner_id: row.targetOwnerId,
        moderator_id: claims.sub,
        note: note || null,
      });
    } else if (decision === 'hidden') {
      // A comment: moderation's own, rejected with the decision (already gone or rejected: nothing to do).
      const comment = await queries.lockComment(t.db, row.targetId);
      if (comment && comment.status !== 'rejected') {
        await queries.updateComment(t.db, comment.id, {
          status: 'rejected',
          moderatedBy: claims.sub,
          moderatedAt: new Date(),
        });
        await commentModerated(t, comment, 'rejected', claims.sub);
      }
    } else if (decision === 'warned' && row.targetOwnerId) {
      await memberWarned(t, {
        userId: row.targetOwnerId,
        reason: REPORT_REASON_LABELS[row.reason],
        targetLabel: row.targetLabel,
        note: note || null,
      });
    }
    return { message: elsewhere ? m.decided : m.resolved, resolved: resolved.length, status };
  });
}

/**
 * The owning service applied a decision (catalog.report.applied, auth.report.applied): its
 * reports close as actioned. Whether it hid the listing now, found it hidden already or deleted,
 * the reports are answered. Only `applying` ones move, so a repeated answer changes nothing.
 */
export async function closeAppliedReports(tx: Db, data: EventData<'catalog.report.applied'>, at: Date) {
  await queries.closeApplyingReports(tx, data.report_ids, at);
}

/** Open reports, for the back office's figures. */
export const openReports = (db: Db) => queries.countOpenReports(db);

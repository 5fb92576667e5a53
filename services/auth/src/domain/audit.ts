import { type AuditPage, messages } from '@cartable/contracts';
import { type Db, unprocessable } from '@cartable/service-kit';
import * as queries from '../db/queries.ts';

/**
 * The administrators' trail: every change to members, roles and rights writes its lines here in
 * the transaction of the change, so a change refused or rolled back leaves none, and a change
 * made leaves one whatever happens next.
 */

export type AuditAction =
  | 'user.promoted'
  | 'user.revoked'
  | 'user.roles_set'
  | 'user.permissions_set'
  | 'user.deactivated'
  | 'user.reactivated'
  | 'user.verification_resent'
  | 'role.created'
  | 'role.updated'
  | 'role.deleted';

/**
 * One line per target: `null` for the role as a whole, a member id for each member concerned
 * (a role's holders see its changes in their own trail). One statement whatever their number.
 */
export async function recordAudit(
  tx: Db,
  entry: { actorId: string | null; action: AuditAction; targets: Array<string | null>; details?: object },
) {
  await queries.insertAuditLines(
    tx,
    [...new Set(entry.targets)].map((targetUserId) => ({
      actorId: entry.actorId,
      targetUserId,
      action: entry.action,
      details: entry.details ?? {},
    })),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Lines about a member (or, with `null`, about roles as a whole), newest first. The cursor is the
 * id of the last line seen: the next page starts strictly after it, (created_at, id) ordered.
 */
export async function auditPage(
  db: Db,
  targetUserId: string | null,
  { cursor, limit }: { cursor?: string; limit: number },
): Promise<AuditPage> {
  if (cursor && !UUID.test(cursor)) throw unprocessable({ cursor: [messages.auth.cursorInvalid] });
  const rows = await queries.auditLines(db, targetUserId, limit, cursor);
  const page = rows.slice(0, limit);
  return {
    data: page.map(({ entry, actorName, targetName }) => ({
      id: entry.id,
      action: entry.action,
      // A member deleted since keeps their id; their name is gone with them.
      actor: entry.actorId ? { id: entry.actorId, name: actorName ?? 'Membre supprimé' } : null,
      target: entry.targetUserId ? { id: entry.targetUserId, name: targetName ?? 'Membre supprimé' } : null,
      details: (entry.details ?? {}) as Record<string, unknown>,
      created_at: entry.createdAt.toISOString(),
    })),
    next_cursor: rows.length > limit ? (page.at(-1)?.entry.id ?? null) : null,
  };
}

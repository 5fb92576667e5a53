import { permissionLabel } from '../../entities/role/labels';
import type { AuditEntry } from './api/users';

const list = (value: unknown, label = (s: string) => s) =>
  Array.isArray(value) && value.length ? value.map((v) => label(String(v))).join(', ') : 'aucun';

/**
 * One line of the administrators' trail, in French (the server keeps slugs and details); roles
 * are named by `roleName` where the reader may list them, by their identifier otherwise.
 */
export function describeAudit(entry: AuditEntry, roleName: (slug: string) => string = (slug) => slug): string {
  const d = entry.details as Record<string, unknown>;
  const role = (d.after as { name?: string } | undefined)?.name ?? (d.name as string | undefined) ?? '';
  switch (entry.action) {
    case 'user.promoted':
      return 'Promu administrateur';
    case 'user.revoked':
      return 'Droits d’administrateur retirés';
    case 'user.roles_set':
      return `Rôles modifiés : ${list(d.before, roleName)} → ${list(d.after, roleName)}`;
    case 'user.permissions_set':
      return `Permissions directes modifiées : ${list(d.before, permissionLabel)} → ${list(d.after, permissionLabel)}`;
    case 'user.deactivated':
      return `Compte désactivé (motif : ${String(d.reason ?? '')})`;
    case 'user.reactivated':
      return 'Compte réactivé';
    case 'user.verification_resent':
      return 'Email de vérification renvoyé';
    case 'role.created':
      return `Rôle « ${role} » créé`;
    case 'role.updated':
      return `Rôle « ${role} » modifié`;
    case 'role.deleted':
      return `Rôle « ${role} » supprimé${typeof d.holders_count === 'number' && d.holders_count > 0 ? ` (retiré à ${d.holders_count} membre${d.holders_count > 1 ? 's' : ''})` : ''}`;
    default:
      return entry.action;
  }
}

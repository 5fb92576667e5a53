import { Badge } from '@cartable/ui';
import type { AdminUser } from './api/users';

/** Verified or not, admin, deactivated: the member's state at a glance. */
export function UserBadges({ user }: { user: Pick<AdminUser, 'email_verified' | 'is_admin' | 'deactivated_at'> }) {
  return (
    <span className="flex flex-wrap gap-1">
      {user.deactivated_at ? <Badge tone="danger">Désactivé</Badge> : <Badge tone="success">Actif</Badge>}
      {user.email_verified ? <Badge tone="ocean">Vérifié</Badge> : <Badge tone="accent">Non vérifié</Badge>}
      {user.is_admin ? <Badge tone="primary">Admin</Badge> : null}
    </span>
  );
}

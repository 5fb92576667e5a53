import { sessionStore } from './session/store';
import type { User } from './session/types';

/** The slug that grants everything. */
export const WILDCARD = '*';

function currentUser(user: User | null | undefined): User | null {
  return user === undefined ? sessionStore.getState().user : user;
}

/**
 * True when the user holds the role (SPEC section 6). Admins and holders of the wildcard pass.
 * Without a `user` argument, the signed-in user is checked.
 */
export function hasRole(slug: string, user?: User | null): boolean {
  const subject = currentUser(user);
  if (!subject) return false;
  if (subject.is_admin) return true;
  return subject.roles.some((role) => role.slug === slug || role.slug === WILDCARD);
}

/**
 * True when the permission is held directly or through a role, when the wildcard is held, or when
 * the user is an admin (SPEC section 6). Without a `user` argument, the signed-in user is checked.
 */
export function hasPermission(slug: string, user?: User | null): boolean {
  const subject = currentUser(user);
  if (!subject) return false;
  if (subject.is_admin) return true;
  const grants = (perm: { slug: string }) => perm.slug === slug || perm.slug === WILDCARD;
  if (subject.permissions.some(grants)) return true;
  return subject.roles.some((role) => role.slug === WILDCARD || role.permissions.some(grants));
}

/**
 * Permissions that open a back-office screen (SPEC section 6, "Menu visibility"). An admin holds
 * them all; a member holding one of them may enter /admin and reaches just that screen.
 */
export const BACK_OFFICE_PERMISSIONS = [
  'books.update.any',
  'users.view.any',
  'cities.manage',
  'categories.update',
  'user_subscriptions.manage',
  'payments.manage',
  'roles.view',
  'reports.view',
  'banners.manage',
  'lists.manage',
] as const;

/** True for admins and for members holding at least one back-office permission. */
export function canEnterBackOffice(user?: User | null): boolean {
  const subject = currentUser(user);
  if (!subject) return false;
  return subject.is_admin || BACK_OFFICE_PERMISSIONS.some((slug) => hasPermission(slug, subject));
}

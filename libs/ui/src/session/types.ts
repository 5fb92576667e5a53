import type { User } from '@cartable/contracts';

/** The user and the login answer as POST /api/login and GET /api/user send them (SPEC section 3). */
export type { LoginResponse, User } from '@cartable/contracts';
export type RoleRef = User['roles'][number];
export type PermissionRef = User['permissions'][number];

import { lazy } from 'react';

/** Roles: their permissions and holders; administrators create, edit and delete them. */
export const RolesPage = lazy(() => import('./RolesPage'));
export { usePermissions, useRoles } from './api/roles';
export { permissionLabel } from './labels';

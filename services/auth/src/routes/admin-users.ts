import {
  adminUserDetailResponseSchema,
  adminUserResponseSchema,
  auditPageSchema,
  auditQuerySchema,
  checkAdminResponseSchema,
  deactivateRequestSchema,
  messageResponseSchema,
  userListQuerySchema,
  userListResponseSchema,
  userPermissionsRequestSchema,
  userRolesRequestSchema,
  uuidParamsSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { deactivateUser, reactivateUser, resendVerification, userAudit, userDetail } from '../domain/account-admin.ts';
import { listUsers, setAdmin, setUserPermissions, setUserRoles } from '../domain/rights.ts';

/**
 * Members in the back office (SPEC.md section 6): the list, one member whole with the trail
 * about them, deactivation, the verification link, admin rights, roles and direct permissions.
 * The rules are src/domain/rights.ts and src/domain/account-admin.ts. Reading is open to holders
 * of users.view.any; every change to rights or to an account's access is for administrators only.
 */
export const adminUserRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { guards } = deps;
  const tags = ['users, roles and permissions'];
  const security = [{ bearer: [] }];
  const idParams = uuidParamsSchema;

  app.get(
    '/users/check-admin',
    { onRequest: guards.requireUser, schema: { tags, security, response: { 200: checkAdminResponseSchema } } },
    async (request) => ({ is_admin: request.claims!.is_admin }),
  );

  app.get(
    '/users/all',
    {
      onRequest: guards.requirePermission('users.view.any'),
      schema: { tags, security, querystring: userListQuerySchema, response: { 200: userListResponseSchema } },
    },
    async (request) => listUsers(deps, request.query),
  );

  app.get(
    '/admin/users/:id',
    {
      onRequest: guards.requirePermission('users.view.any'),
      schema: { tags, security, params: idParams, response: { 200: adminUserDetailResponseSchema } },
    },
    async (request) => userDetail(deps, request.params.id),
  );

  app.get(
    '/admin/users/:id/audit',
    {
      onRequest: guards.requirePermission('users.view.any'),
      schema: { tags, security, params: idParams, querystring: auditQuerySchema, response: { 200: auditPageSchema } },
    },
    async (request) => userAudit(deps, request.params.id, request.query),
  );

  app.post(
    '/admin/users/:id/deactivate',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        body: deactivateRequestSchema,
        response: { 200: adminUserResponseSchema },
      },
    },
    async (request) => deactivateUser(deps, request.params.id, request.body.reason, request.claims!.sub),
  );

  app.post(
    '/admin/users/:id/reactivate',
    {
      onRequest: guards.requireAdmin,
      schema: { tags, security, params: idParams, response: { 200: adminUserResponseSchema } },
    },
    async (request) => reactivateUser(deps, request.params.id, request.claims!.sub),
  );

  app.post(
    '/admin/users/:id/resend-verification',
    {
      // Open to users.view.any, not only to administrators: it changes no right and no data, it
      // only sends the member a new link to the address they registered (support staff answering
      // « je n'ai pas reçu l'email » need it); the audit trail records who sent it.
      onRequest: guards.requirePermission('users.view.any'),
      schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } },
    },
    async (request) => resendVerification(deps, request.params.id, request.claims!.sub),
  );

  for (const action of ['promote', 'revoke'] as const) {
    app.post(
      `/admin/users/:id/${action}`,
      {
        onRequest: guards.requireAdmin,
        schema: { tags, security, params: idParams, response: { 200: adminUserResponseSchema } },
      },
      async (request) => setAdmin(deps, request.params.id, action === 'promote', request.claims!.sub),
    );
  }

  app.put(
    '/admin/users/:id/roles',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        body: userRolesRequestSchema,
        response: { 200: adminUserResponseSchema },
      },
    },
    async (request) => setUserRoles(deps, request.params.id, request.body.roles, request.claims!.sub),
  );

  app.put(
    '/admin/users/:id/permissions',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        body: userPermissionsRequestSchema,
        response: { 200: adminUserResponseSchema },
      },
    },
    async (request) => setUserPermissions(deps, request.params.id, request.body.permissions, request.claims!.sub),
  );
};

import {
  adminUserDetailResponseSchema,
  adminUserResponseSchema,
  auditPageSchema,
  auditQuerySchema,
  checkAdminResponseSchema,
  deactivateRequestSchema,
  messageResponseSchema,
  messages,
  permissionsResponseSchema,
  roleDeleteQuerySchema,
  roleHoldersQuerySchema,
  roleHoldersResponseSchema,
  roleRequestSchema,
  roleResponseWithMessageSchema,
  rolesResponseSchema,
  userListQuerySchema,
  userListResponseSchema,
  userPermissionsRequestSchema,
  userRolesRequestSchema,
  uuidParamsSchema,
} from '@cartable/contracts';
import { notFound } from '@cartable/service-kit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { deactivateUser, reactivateUser, resendVerification, userDetail } from '../domain/account-admin.ts';
import { auditPage } from '../domain/audit.ts';
import {
  createRole,
  deleteRole,
  listPermissions,
  listRoleHolders,
  listRoles,
  listUsers,
  setAdmin,
  setUserPermissions,
  setUserRoles,
  updateRole,
} from '../domain/rights.ts';
import { findUserById } from '../domain/users.ts';

/**
 * Users, admin rights, roles and permissions (SPEC.md section 6): HTTP in, HTTP out. The schemas
 * are libs/contracts/src/auth.ts; the rules (and the role_changed events) are src/domain/rights.ts,
 * deactivation and the rest of an account's administration src/domain/account-admin.ts, the
 * administrators' trail src/domain/audit.ts. Reading is open to holders of users.view.any
 * (members) and roles.view (roles); every change to rights or to an account's access is for
 * administrators only.
 */
export const adminUserRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db, guards } = deps;
  const tags = ['users, roles and permissions'];
  const security = [{ bearer: [] }];
  const idParams = uuidParamsSchema;

  app.get(
    '/users/check-admin',
    { preHandler: guards.requireUser, schema: { tags, security, response: { 200: checkAdminResponseSchema } } },
    async (request) => ({ is_admin: request.claims!.is_admin }),
  );

  app.get(
    '/users/all',
    {
      preHandler: guards.requirePermission('users.view.any'),
      schema: { tags, security, querystring: userListQuerySchema, response: { 200: userListResponseSchema } },
    },
    async (request) => listUsers(db, request.query),
  );

  app.get(
    '/admin/users/:id',
    {
      preHandler: guards.requirePermission('users.view.any'),
      schema: { tags, security, params: idParams, response: { 200: adminUserDetailResponseSchema } },
    },
    async (request) => userDetail(deps, request.params.id),
  );

  app.get(
    '/admin/users/:id/audit',
    {
      preHandler: guards.requirePermission('users.view.any'),
      schema: { tags, security, params: idParams, querystring: auditQuerySchema, response: { 200: auditPageSchema } },
    },
    async (request) => {
      if (!(await findUserById(db, request.params.id))) throw notFound(messages.auth.userNotFound);
      return auditPage(db, request.params.id, request.query);
    },
  );

  app.post(
    '/admin/users/:id/deactivate',
    {
      preHandler: guards.requireAdmin,
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
      preHandler: guards.requireAdmin,
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
      preHandler: guards.requirePermission('users.view.any'),
      schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } },
    },
    async (request) => resendVerification(deps, request.params.id, request.claims!.sub),
  );

  for (const action of ['promote', 'revoke'] as const) {
    app.post(
      `/admin/users/:id/${action}`,
      {
        preHandler: guards.requireAdmin,
        schema: { tags, security, params: idParams, response: { 200: adminUserResponseSchema } },
      },
      async (request) => setAdmin(deps, request.params.id, action === 'promote', request.claims!.sub),
    );
  }

  app.put(
    '/admin/users/:id/roles',
    {
      preHandler: guards.requireAdmin,
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
      preHandler: guards.requireAdmin,
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

  app.get(
    '/roles',
    {
      preHandler: guards.requirePermission('roles.view'),
      schema: { tags, security, response: { 200: rolesResponseSchema } },
    },
    async () => ({ roles: await listRoles(db) }),
  );

  app.get(
    '/permissions',
    {
      preHandler: guards.requirePermission('roles.view'),
      schema: { tags, security, response: { 200: permissionsResponseSchema } },
    },
    async () => ({ permissions: await listPermissions(db) }),
  );

  app.get(
    '/roles/:id/holders',
    {
      preHandler: guards.requirePermission('roles.view'),
      schema: {
        tags,
        security,
        params: idParams,
        querystring: roleHoldersQuerySchema,
        response: { 200: roleHoldersResponseSchema },
      },
    },
    async (request) => listRoleHolders(db, request.params.id, request.query),
  );

  app.post(
    '/roles',
    {
      preHandler: guards.requireAdmin,
      schema: { tags, security, body: roleRequestSchema, response: { 201: roleResponseWithMessageSchema } },
    },
    async (request, reply) =>
      reply.status(201).send({
        message: messages.auth.roleCreated,
        role: await createRole(db, request.body, request.claims!.sub),
      }),
  );

  app.put(
    '/roles/:id',
    {
      preHandler: guards.requireAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        body: roleRequestSchema,
        response: { 200: roleResponseWithMessageSchema },
      },
    },
    async (request) => ({
      message: messages.auth.roleUpdated,
      role: await updateRole(deps, request.params.id, request.body, request.claims!.sub),
    }),
  );

  app.delete(
    '/roles/:id',
    {
      preHandler: guards.requireAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        querystring: roleDeleteQuerySchema,
        response: { 200: messageResponseSchema },
      },
    },
    // Held by members: 409 with holders_count, unless ?force=true takes it from them.
    async (request) => deleteRole(deps, request.params.id, request.claims!.sub, request.query.force),
  );
};

import {
  checkAdminResponseSchema,
  messageResponseSchema,
  permissionsResponseSchema,
  roleRequestSchema,
  roleResponseSchema,
  rolesResponseSchema,
  userListQuerySchema,
  userListResponseSchema,
  userPermissionsRequestSchema,
  userResponseSchema,
  userRolesRequestSchema,
  uuidParamsSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import {
  createRole,
  deleteRole,
  listPermissions,
  listRoles,
  listUsers,
  setAdmin,
  setUserPermissions,
  setUserRoles,
  updateRole,
} from '../domain/rights.ts';

/**
 * Users, admin rights, roles and permissions (SPEC.md section 6): HTTP in, HTTP out. The schemas
 * are libs/contracts/src/auth.ts; the rules (and the role_changed events) are src/domain/rights.ts.
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

  for (const action of ['promote', 'revoke'] as const) {
    app.post(
      `/admin/users/:id/${action}`,
      {
        preHandler: guards.requireAdmin,
        schema: { tags, security, params: idParams, response: { 200: userResponseSchema } },
      },
      async (request) => setAdmin(deps, request.params.id, action === 'promote', request.claims!.sub),
    );
  }

  app.put(
    '/admin/users/:id/roles',
    {
      preHandler: guards.requireAdmin,
      schema: { tags, security, params: idParams, body: userRolesRequestSchema, response: { 200: userResponseSchema } },
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
        response: { 200: userResponseSchema },
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

  app.post(
    '/roles',
    {
      preHandler: guards.requireAdmin,
      schema: { tags, security, body: roleRequestSchema, response: { 201: roleResponseSchema } },
    },
    async (request, reply) => reply.status(201).send({ role: await createRole(db, request.body) }),
  );

  app.put(
    '/roles/:id',
    {
      preHandler: guards.requireAdmin,
      schema: { tags, security, params: idParams, body: roleRequestSchema, response: { 200: roleResponseSchema } },
    },
    async (request) => ({ role: await updateRole(deps, request.params.id, request.body, request.claims!.sub) }),
  );

  app.delete(
    '/roles/:id',
    {
      preHandler: guards.requireAdmin,
      schema: { tags, security, params: idParams, response: { 200: messageResponseSchema } },
    },
    async (request) => deleteRole(deps, request.params.id, request.claims!.sub),
  );
};

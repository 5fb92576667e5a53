import {
  messageResponseSchema,
  permissionsResponseSchema,
  roleDeleteQuerySchema,
  roleHoldersQuerySchema,
  roleHoldersResponseSchema,
  roleRequestSchema,
  roleResponseWithMessageSchema,
  rolesResponseSchema,
  uuidParamsSchema,
} from '@cartable/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import { allPermissions, allRoles, createRole, deleteRole, listRoleHolders, updateRole } from '../domain/rights.ts';

/**
 * Roles and permissions in the back office (SPEC.md section 6); the rules and the role_changed
 * events are src/domain/rights.ts. Reading is open to holders of roles.view; every change is for
 * administrators only.
 */
export const adminRoleRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { guards } = deps;
  const tags = ['users, roles and permissions'];
  const security = [{ bearer: [] }];
  const idParams = uuidParamsSchema;

  app.get(
    '/roles',
    {
      onRequest: guards.requirePermission('roles.view'),
      schema: { tags, security, response: { 200: rolesResponseSchema } },
    },
    async () => allRoles(deps),
  );

  app.get(
    '/permissions',
    {
      onRequest: guards.requirePermission('roles.view'),
      schema: { tags, security, response: { 200: permissionsResponseSchema } },
    },
    async () => allPermissions(deps),
  );

  app.get(
    '/roles/:id/holders',
    {
      onRequest: guards.requirePermission('roles.view'),
      schema: {
        tags,
        security,
        params: idParams,
        querystring: roleHoldersQuerySchema,
        response: { 200: roleHoldersResponseSchema },
      },
    },
    async (request) => listRoleHolders(deps, request.params.id, request.query),
  );

  app.post(
    '/roles',
    {
      onRequest: guards.requireAdmin,
      schema: { tags, security, body: roleRequestSchema, response: { 201: roleResponseWithMessageSchema } },
    },
    async (request, reply) => reply.status(201).send(await createRole(deps, request.body, request.claims!.sub)),
  );

  app.put(
    '/roles/:id',
    {
      onRequest: guards.requireAdmin,
      schema: {
        tags,
        security,
        params: idParams,
        body: roleRequestSchema,
        response: { 200: roleResponseWithMessageSchema },
      },
    },
    async (request) => updateRole(deps, request.params.id, request.body, request.claims!.sub),
  );

  app.delete(
    '/roles/:id',
    {
      onRequest: guards.requireAdmin,
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

import {
  messageResponseSchema,
  passwordOnlySchema,
  profileResponseSchema,
  profileUpdateResponseSchema,
  profileUpdateSchema,
  publicProfileParamsSchema,
  publicProfileResponseSchema,
  recentActivityQuerySchema,
  recentActivityResponseSchema,
  userStatsResponseSchema,
} from '@cartable/contracts';
import { unprocessable } from '@cartable/service-kit';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthDeps } from '../deps.ts';
import {
  deleteAccount,
  memberStats,
  profile,
  publicProfile,
  recentActivity,
  removeProfileImage,
  setProfileImage,
  updateProfile,
} from '../domain/profile.ts';

const tags = ['profile'];
const security = [{ bearer: [] }];
const IMAGE_FIELD = 'profile_image';

/** /user/profile (+ image), /user/account, /user/stats, /user/recent-activity, /users/{id}. */
export const profileRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { config } = deps;
  await app.register(multipart, {
    limits: { fileSize: config.PROFILE_IMAGE_MAX_BYTES, files: 1, fields: 5 },
  });
  const authed = { onRequest: deps.guards.requireUser };
  const imageRefused = (message: string) => unprocessable({ [IMAGE_FIELD]: [message] }, message);

  app.get(
    '/user/profile',
    { ...authed, schema: { tags, security, response: { 200: profileResponseSchema } } },
    async (request) => profile(deps, request.claims!.sub),
  );

  app.put(
    '/user/profile',
    {
      ...authed,
      schema: { tags, security, body: profileUpdateSchema, response: { 200: profileUpdateResponseSchema } },
    },
    async (request) => updateProfile(deps, request.claims!.sub, request.body),
  );

  // Multipart: the file `profile_image`, read whole within PROFILE_IMAGE_MAX_BYTES.
  app.post(
    '/user/profile/image',
    { ...authed, schema: { tags, security, response: { 200: profileUpdateResponseSchema } } },
    async (request) => {
      const file = request.isMultipart() ? await request.file() : undefined;
      if (file?.fieldname !== IMAGE_FIELD) throw imageRefused('Envoyez une image dans le champ profile_image.');
      const bytes = await file.toBuffer().catch(() => null);
      if (!bytes || file.file.truncated) {
        throw imageRefused(
          `L'image ne doit pas dépasser ${Math.round(config.PROFILE_IMAGE_MAX_BYTES / 1024 / 1024)} Mo.`,
        );
      }
      return setProfileImage(deps, request.claims!.sub, bytes);
    },
  );

  app.delete(
    '/user/profile/image',
    { ...authed, schema: { tags, security, response: { 200: profileUpdateResponseSchema } } },
    async (request) => removeProfileImage(deps, request.claims!.sub),
  );

  app.delete(
    '/user/account',
    { ...authed, schema: { tags, security, body: passwordOnlySchema, response: { 200: messageResponseSchema } } },
    async (request) => deleteAccount(deps, request.claims!.sub, request.body.password),
  );

  app.get(
    '/user/stats',
    { ...authed, schema: { tags, security, response: { 200: userStatsResponseSchema } } },
    async (request) => memberStats(deps, request.claims!.sub),
  );

  app.get(
    '/user/recent-activity',
    {
      ...authed,
      schema: {
        tags,
        security,
        querystring: recentActivityQuerySchema,
        response: { 200: recentActivityResponseSchema },
      },
    },
    async (request) => recentActivity(deps, request.claims!.sub, request.query.limit),
  );

  app.get(
    '/users/:userId',
    {
      onRequest: deps.guards.optionalUser,
      schema: { tags, params: publicProfileParamsSchema, response: { 200: publicProfileResponseSchema } },
    },
    async (request) => publicProfile(deps, request.params.userId, request.claims?.sub),
  );
};

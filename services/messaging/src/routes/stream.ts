import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MessagingDeps } from '../deps.ts';
import type { LiveHub } from '../domain/live.ts';
import { openLiveStream } from './live-stream.ts';

/**
 * GET /messages/stream (services/messaging/API.md): the member's new messages, unread count and
 * read receipts as server-sent events, so that the screens stop polling. The token is checked
 * here on connection (the service's own guards) and again at every heartbeat: a logout, a
 * password change, a deactivation or a deletion ends the stream within one heartbeat.
 */
export const streamRoutes: FastifyPluginAsyncZod<MessagingDeps & { live: LiveHub }> = async (
  app,
  { uow, guards, config, live },
) => {
  app.get(
    '/messages/stream',
    {
      onRequest: guards.requireVerified,
      schema: {
        tags: ['messages'],
        security: [{ bearer: [] }],
        summary: 'Messages, non-lus et accusés de lecture en direct (text/event-stream)',
        description:
          'Server-sent events: `message`, `unread`, `read`, `ready`, `resync`, `end` (payloads in libs/contracts/src/messaging.ts). ' +
          '`Last-Event-ID` replays the messages since. 429 beyond the connection limits.',
        response: {
          200: {
            description: 'Un flux text/event-stream qui reste ouvert.',
            content: {
              'text/event-stream': {
                schema: z
                  .string()
                  .describe(
                    'event: message|unread|read|ready|resync|end, data: JSON (live*EventSchema of libs/contracts), id on message and ready; `: ping` every heartbeat',
                  ),
              },
            },
          },
          429: z.object({ message: z.string() }),
        },
      },
    },
    async (request, reply) =>
      openLiveStream(
        { app, guards, live, db: uow.db, heartbeatMs: config.MESSAGE_STREAM_HEARTBEAT_MS },
        request,
        reply,
      ),
  );
};

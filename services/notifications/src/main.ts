import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  combineHandlers,
  createHttpApp,
  createRedis,
  loadConfig,
  openInfrastructure,
  serve,
  startConsumers,
} from '@cartable/service-kit';
import pino from 'pino';
import { notificationsConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { mailTriggers } from './events/mail-triggers.ts';
import { memberAddresses, messageMails } from './events/message-mails.ts';
import { moderationMails } from './events/moderation-mails.ts';
import { createMailQueue, startMailWorker } from './queue/mail-queue.ts';

await bootstrap(async () => {
  const config = loadConfig(notificationsConfigSchema);
  const log = pino({ level: config.LOG_LEVEL, base: { service: 'notifications' } });
  const infra = await openInfrastructure({
    name: 'notifications',
    config,
    log,
    databaseUrl: config.NOTIFICATIONS_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
  });
  // BullMQ blocks on its connections: one for the queue, one for the worker.
  const queueRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const workerRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const queue = createMailQueue(queueRedis, config);
  const worker = startMailWorker(workerRedis, config, log);
  const stopConsumers = await startConsumers(
    { nc: infra.nc, db: infra.database.db, namespace: config.EVENT_NAMESPACE, log, consumer: 'notifications' },
    {
      auth: combineHandlers(memberAddresses, mailTriggers(queue)),
      messaging: messageMails(queue),
      moderation: moderationMails(queue),
    },
  );
  const app = createHttpApp({
    name: 'notifications',
    logLevel: config.LOG_LEVEL,
    readiness: [...infra.readiness, { name: 'redis', check: () => queueRedis.ping() }],
  });
  await serve(app, { port: config.PORT, host: config.HOST }, [
    ...stopConsumers,
    () => worker.close(),
    () => queue.close(),
    () => queueRedis.quit(),
    () => workerRedis.quit(),
    ...infra.closers,
  ]);
});

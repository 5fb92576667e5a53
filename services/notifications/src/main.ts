import { fileURLToPath } from 'node:url';
import {
  bootstrap,
  combineHandlers,
  createLogger,
  createRedis,
  createServiceGuards,
  loadConfig,
  openInfrastructure,
  serve,
  startPeriodic,
} from '@cartable/service-kit';
import { buildNotificationsApp } from './app.ts';
import { notificationsConfigSchema } from './config.ts';
import * as schema from './db/schema.ts';
import { catalogMails } from './events/catalog-mails.ts';
import { classListMails } from './events/class-list-mails.ts';
import { exchangeMails } from './events/exchange-mails.ts';
import { mailTriggers } from './events/mail-triggers.ts';
import { memberAddresses, messageMails } from './events/message-mails.ts';
import { moderationMails } from './events/moderation-mails.ts';
import { deleteOldNotices, noticeTriggers } from './events/notices.ts';
import { savedSearchMails, startSavedSearchDigests } from './events/saved-search-mails.ts';
import { sendSchoolYearReminders } from './events/school-year-reminders.ts';
import { subscriptionMails } from './events/subscription-mails.ts';
import { createMailQueue, startMailWorker } from './queue/mail-queue.ts';
import { createMailReconciler } from './queue/mail-reconciler.ts';
import { deleteFinishedMails } from './queue/outgoing-mails.ts';
import { deleteOldPhoneCodes } from './sms/alert-phone.ts';
import { smsProviderFrom } from './sms/infobip.ts';
import { deleteFinishedSms, parseQuietHours, smsQuietHours } from './sms/outgoing-sms.ts';
import { createSmsQueue, createSmsReconciler, startSmsWorker } from './sms/sms-queue.ts';

await bootstrap(async () => {
  const config = loadConfig(notificationsConfigSchema);
  const log = createLogger('notifications', config.LOG_LEVEL);
  const infra = await openInfrastructure({
    name: 'notifications',
    config,
    log,
    databaseUrl: config.NOTIFICATIONS_DATABASE_URL,
    schema,
    migrationsFolder: fileURLToPath(new URL('../drizzle', import.meta.url)),
    housekeeping: [
      { name: 'outgoing_mails', run: deleteFinishedMails(config.MAIL_RETENTION_DAYS) },
      { name: 'notices', run: deleteOldNotices(config.NOTICE_RETENTION_DAYS) },
      { name: 'outgoing_sms', run: deleteFinishedSms(config.MAIL_RETENTION_DAYS) },
      { name: 'phone_codes', run: deleteOldPhoneCodes },
    ],
  });
  const db = infra.database.db;
  // BullMQ blocks on its connections: one for the queue, one for the worker.
  const queueRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const workerRedis = createRedis(config.REDIS_URL, { forQueue: true });
  const queue = createMailQueue(queueRedis, config);
  // Mails are rows in the database; the reconciler puts them in the queue: after each event's
  // commit, at start-up, periodically, and after Redis comes back (maybe empty).
  const reconciler = createMailReconciler({ db, queue, log, intervalMs: config.MAIL_RECONCILE_INTERVAL_MS });
  const worker = startMailWorker(workerRedis, db, config, log, { onSmtpBack: () => reconciler.retryNow() });
  // SMS: the same shape, a queue of their own (SMS_PROVIDER_URL unset: no SMS channel).
  const smsProvider = smsProviderFrom(config);
  smsQuietHours.current = parseQuietHours(config.SMS_QUIET_HOURS);
  const smsQueue = createSmsQueue(queueRedis, config);
  const smsReconciler = createSmsReconciler({ db, queue: smsQueue, log, intervalMs: config.SMS_RECONCILE_INTERVAL_MS });
  const smsWorker = smsProvider ? startSmsWorker(workerRedis, db, smsProvider, config, log) : undefined;
  queueRedis.on('ready', () => {
    void reconciler.reconcile('all');
    void smsReconciler.reconcile('all');
  });
  reconciler.start();
  if (smsProvider) smsReconciler.start();
  infra.startConsumers(
    {
      auth: combineHandlers(memberAddresses, mailTriggers),
      messaging: messageMails,
      moderation: moderationMails,
      catalog: combineHandlers(
        catalogMails,
        noticeTriggers,
        subscriptionMails,
        classListMails,
        savedSearchMails,
        exchangeMails,
      ),
    },
    {
      onHandled: () => {
        void reconciler.reconcile('new');
        void smsReconciler.reconcile('new');
      },
    },
  );
  // Saved searches' alerts that wait (instant within 15 min of the last, digests, the daily cap):
  // their state is in PostgreSQL, this pass sends them when due.
  const digests = startSavedSearchDigests({
    db,
    log,
    intervalMs: config.SAVED_SEARCH_ALERT_INTERVAL_MS,
    onSent: () => void reconciler.reconcile('new'),
  });
  // The school year's reminders: each member once per season and year (the table's key), whichever
  // replica gets there first.
  const stopSchoolYearReminders = startPeriodic(() => sendSchoolYearReminders(db), {
    intervalMs: config.SCHOOL_YEAR_REMINDER_INTERVAL_MS,
    log,
    failure: 'school year reminders failed; next round will retry',
    report: (reminded) => {
      if (reminded === 0) return;
      log.info({ reminded }, 'school year reminders written');
      void reconciler.reconcile('new');
      void smsReconciler.reconcile('new');
    },
  });
  // The notice centre's tokens are checked here too (revocation cache in Redis, then auth).
  const guardsRedis = createRedis(config.REDIS_URL);
  const guards = createServiceGuards(config, guardsRedis, log);
  const app = await buildNotificationsApp(
    { config, db, guards, smsProvider, onSmsWritten: () => void smsReconciler.reconcile('new') },
    // Without Redis mails wait in the database: reported, not fatal.
    [...infra.readiness, { name: 'redis', critical: false, check: () => queueRedis.ping() }],
  );
  await serve(app, { port: config.PORT, host: config.HOST, metricsPort: config.METRICS_PORT }, [
    () => reconciler.stop(),
    () => smsReconciler.stop(),
    async () => digests.stop(),
    async () => stopSchoolYearReminders(),
    () => worker.close(),
    async () => smsWorker?.close(),
    ...infra.closers,
    () => queue.close(),
    () => smsQueue.close(),
    () => queueRedis.quit(),
    () => workerRedis.quit(),
    () => guardsRedis.quit(),
  ]);
});

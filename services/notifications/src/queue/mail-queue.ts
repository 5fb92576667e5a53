import type { Db } from '@cartable/service-kit';
import { DelayedError, type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { NotificationsConfig } from '../config.ts';
import {
  renderAccountDeletedMail,
  renderPasswordChangedMail,
  renderPasswordResetMail,
  renderTwoFactorCodeMail,
} from '../templates/account.ts';
import { type BookModerationAction, renderBookModeratedMail } from '../templates/catalog.ts';
import {
  type ClassListChangedMail,
  type ClassListWithdrawnMail,
  renderClassListChangedMail,
  renderClassListWithdrawnMail,
} from '../templates/class-list-changes.ts';
import {
  type ClassListMatchMail,
  type ClassListReviewMail,
  renderClassListMatchMail,
  renderClassListReviewMail,
} from '../templates/class-lists.ts';
import { type DealMail, renderDealMail } from '../templates/deals.ts';
import { type ExchangeSuggestedMail, renderExchangeSuggestedMail } from '../templates/exchanges.ts';
import { type FavouriteAlertMail, renderFavouriteAlertMail } from '../templates/favourites.ts';
import type { RenderedMail } from '../templates/layout.ts';
import { renderMessageCopyMail, renderNewMessageMail } from '../templates/messages.ts';
import { renderContactAnswerMail, renderMemberWarnedMail, renderNewCommentMail } from '../templates/moderation.ts';
import { renderSavedSearchMail, type SavedSearchMail } from '../templates/saved-searches.ts';
import { renderSchoolYearReminderMail, type SchoolYearReminderMail } from '../templates/school-year.ts';
import { renderSubscriptionMail, type SubscriptionMail } from '../templates/subscriptions.ts';
import { renderVerificationMail } from '../templates/verification.ts';
import { deliverMail, type MailRetryPolicy } from './outgoing-mails.ts';

export const MAIL_QUEUE = 'mail';

/** A mail to send: data, not HTML; templates render at the send, so a fix applies to retries too. */
export type Mail = { to: string } & (
  | { template: 'verification'; data: { name: string; email: string; token: string; expiresAt: string } }
  | { template: 'password-reset'; data: { name: string; email: string; token: string; expiresAt: string } }
  | {
      template: 'two-factor-code';
      data: { name: string; code: string; purpose: 'login' | 'enable' | 'disable'; expiresAt: string };
    }
  | { template: 'password-changed'; data: { name: string; email: string; changedAt: string } }
  | { template: 'account-deleted'; data: { name: string; deletedAt: string } }
  | {
      template: 'new-message';
      data: { name: string; senderName: string; bookTitle: string; bookId: number; senderId: string; content: string };
    }
  | {
      template: 'new-comment';
      data: { name: string; authorName: string; bookTitle: string; bookId: number; content: string; pending: boolean };
    }
  | { template: 'contact-answer'; data: { name: string; subject: string; message: string; response: string } }
  | { template: 'member-warned'; data: { name: string; reason: string; targetLabel: string; note: string | null } }
  | {
      template: 'book-moderated';
      data: {
        name: string;
        bookTitle: string;
        bookId: number;
        action: BookModerationAction;
        status?: string;
        reason: string | null;
      };
    }
  | { template: 'deal'; data: DealMail }
  | { template: 'subscription'; data: SubscriptionMail }
  | { template: 'class-list-match'; data: ClassListMatchMail }
  | { template: 'class-list-review'; data: ClassListReviewMail }
  | { template: 'class-list-changed'; data: ClassListChangedMail }
  | { template: 'class-list-withdrawn'; data: ClassListWithdrawnMail }
  | { template: 'exchange-suggested'; data: ExchangeSuggestedMail }
  | { template: 'favourite-alert'; data: FavouriteAlertMail }
  | { template: 'saved-search-alert'; data: SavedSearchMail }
  | { template: 'school-year-reminder'; data: SchoolYearReminderMail }
  | {
      template: 'message-copy';
      data: {
        name: string;
        receiverName: string;
        bookTitle: string;
        bookId: number;
        receiverId: string;
        content: string;
      };
    }
);

export function render(job: Mail, publicUrl: string): RenderedMail {
  switch (job.template) {
    case 'verification':
      return renderVerificationMail(publicUrl, job.data);
    case 'password-reset':
      return renderPasswordResetMail(publicUrl, job.data);
    case 'two-factor-code':
      return renderTwoFactorCodeMail(job.data);
    case 'password-changed':
      return renderPasswordChangedMail(publicUrl, job.data);
    case 'account-deleted':
      return renderAccountDeletedMail(job.data);
    case 'new-message':
      return renderNewMessageMail(publicUrl, job.data);
    case 'message-copy':
      return renderMessageCopyMail(publicUrl, job.data);
    case 'new-comment':
      return renderNewCommentMail(publicUrl, job.data);
    case 'contact-answer':
      return renderContactAnswerMail(job.data);
    case 'member-warned':
      return renderMemberWarnedMail(publicUrl, job.data);
    case 'book-moderated':
      return renderBookModeratedMail(publicUrl, job.data);
    case 'favourite-alert':
      return renderFavouriteAlertMail(publicUrl, job.data);
    case 'deal':
      return renderDealMail(publicUrl, job.data);
    case 'subscription':
      return renderSubscriptionMail(publicUrl, job.data);
    case 'class-list-match':
      return renderClassListMatchMail(publicUrl, job.data);
    case 'exchange-suggested':
      return renderExchangeSuggestedMail(publicUrl, job.data);
    case 'class-list-review':
      return renderClassListReviewMail(publicUrl, job.data);
    case 'class-list-changed':
      return renderClassListChangedMail(publicUrl, job.data);
    case 'class-list-withdrawn':
      return renderClassListWithdrawnMail(publicUrl, job.data);
    case 'saved-search-alert':
      return renderSavedSearchMail(publicUrl, job.data);
    case 'school-year-reminder':
      return renderSchoolYearReminderMail(publicUrl, job.data);
  }
}

/** A job only names the mail: the row in outgoing_mails holds what to send and whether it was. */
export interface MailJob {
  id: string;
}

export function createMailQueue(connection: Redis, config: NotificationsConfig) {
  return new Queue<MailJob>(MAIL_QUEUE, {
    connection,
    prefix: config.QUEUE_PREFIX,
    defaultJobOptions: {
      // A few quick retries for a database blip; SMTP failures are rescheduled from the row.
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      // Finished jobs leave the queue so the same id can be queued again (jobId deduplicates
      // against any job still in Redis); the row keeps the history.
      removeOnComplete: true,
      removeOnFail: true,
    },
  });
}

/** How often an unreachable SMTP server is probed (a connection and EHLO, no mail). */
const SMTP_PROBE_MS = 5000;
/** nodemailer's codes for "could not talk to the server at all", as opposed to an answer. */
const UNREACHABLE = new Set(['ESOCKET', 'ECONNECTION', 'ETIMEDOUT', 'EDNS']);

/**
 * Sends queued mails over SMTP, once each (see deliverMail), rescheduling failed sends. While
 * the SMTP server is unreachable, mails wait out growing delays (up to 10 min); a light probe
 * notices when it answers again and calls `onSmtpBack`, so they go at once instead.
 */
export function startMailWorker(
  connection: Redis,
  db: Db,
  config: NotificationsConfig,
  log: Logger,
  { onSmtpBack }: { onSmtpBack?: () => Promise<void> } = {},
) {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } } : {}),
    // The row stays locked during a send: a silent server must not hold it for minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  let unreachable = false;
  const reachable = () => {
    if (!unreachable) return;
    unreachable = false;
    log.info('SMTP server reachable again: waiting mails are sent now');
    onSmtpBack?.().catch((err) => log.warn({ err }, 'waiting mails could not be brought forward'));
  };
  const send = async (mail: Mail) => {
    try {
      await transport.sendMail({ from: config.MAIL_FROM, to: mail.to, ...render(mail, config.PUBLIC_URL) });
    } catch (err) {
      if (UNREACHABLE.has((err as { code?: string }).code ?? '')) unreachable = true;
      throw err;
    }
    reachable();
  };
  const probe = setInterval(() => {
    if (unreachable) transport.verify().then(reachable, () => {});
  }, SMTP_PROBE_MS);
  probe.unref();
  const policy = mailRetryPolicy(config);
  const worker = new Worker<MailJob>(
    MAIL_QUEUE,
    async (job: Job<MailJob>, token?: string) => {
      const delivery = await deliverMail(db, job.data.id, send, policy, log);
      if (delivery.status === 'retry') {
        await job.moveToDelayed(delivery.at.getTime(), token);
        throw new DelayedError();
      }
    },
    { connection, prefix: config.QUEUE_PREFIX, concurrency: 4 },
  );
  worker.on('failed', (job, err) => log.warn({ mail: job?.id, err }, 'mail job failed'));
  // Without a listener an error event would crash the process; the connection retries by itself.
  worker.on('error', (err) => log.warn({ err }, 'mail worker error'));
  return {
    worker,
    async close() {
      clearInterval(probe);
      await worker.close();
      transport.close();
    },
  };
}

export function mailRetryPolicy(config: NotificationsConfig): MailRetryPolicy {
  return {
    initialDelayMs: config.MAIL_RETRY_INITIAL_DELAY_MS,
    maxDelayMs: config.MAIL_RETRY_MAX_DELAY_MS,
    budgetMs: config.MAIL_RETRY_HOURS * 3600_000,
  };
}

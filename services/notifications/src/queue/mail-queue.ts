import { type Job, Queue, Worker } from 'bullmq';
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
import type { RenderedMail } from '../templates/layout.ts';
import { renderMessageCopyMail, renderNewMessageMail } from '../templates/messages.ts';
import { renderContactAnswerMail, renderNewCommentMail } from '../templates/moderation.ts';
import { renderVerificationMail } from '../templates/verification.ts';

export const MAIL_QUEUE = 'mail';

/** Jobs carry data, not HTML: templates render in the worker, so a fix applies to retries too. */
export type MailJob = { to: string } & (
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

export function render(job: MailJob, publicUrl: string): RenderedMail {
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
  }
}

export function createMailQueue(connection: Redis, config: NotificationsConfig) {
  return new Queue<MailJob>(MAIL_QUEUE, {
    connection,
    prefix: config.QUEUE_PREFIX,
    defaultJobOptions: {
      attempts: config.MAIL_ATTEMPTS,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  });
}

/** Sends queued mails over SMTP; a failed send is retried by BullMQ with exponential backoff. */
export function startMailWorker(connection: Redis, config: NotificationsConfig, log: Logger) {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ...(config.SMTP_USER ? { auth: { user: config.SMTP_USER, pass: config.SMTP_PASS ?? '' } } : {}),
  });
  const worker = new Worker<MailJob>(
    MAIL_QUEUE,
    async (job: Job<MailJob>) => {
      const mail = render(job.data, config.PUBLIC_URL);
      const info = await transport.sendMail({ from: config.MAIL_FROM, to: job.data.to, ...mail });
      log.info({ job: job.id, template: job.data.template, messageId: info.messageId }, 'mail sent');
    },
    { connection, prefix: config.QUEUE_PREFIX, concurrency: 4 },
  );
  worker.on('failed', (job, err) => log.warn({ job: job?.id, attempt: job?.attemptsMade, err }, 'mail failed'));
  return {
    worker,
    async close() {
      await worker.close();
      transport.close();
    },
  };
}

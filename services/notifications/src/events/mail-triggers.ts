import type { EventHandlers } from '@cartable/service-kit';
import type { Queue } from 'bullmq';
import type { MailJob } from '../queue/mail-queue.ts';

/** Which event sends which mail. The job id is the event id: a redelivered event queues nothing new. */
export function mailTriggers(queue: Queue<MailJob>): EventHandlers {
  const send = (eventId: string, job: MailJob) =>
    queue.add(job.template, job, { jobId: eventId }).then(() => undefined);
  return {
    'auth.user.registered': (_tx, { id, data }) =>
      send(id, {
        template: 'verification',
        to: data.email,
        data: {
          name: data.name,
          email: data.email,
          token: data.verification.token,
          expiresAt: data.verification.expires_at,
        },
      }),
    'auth.email_verification.requested': (_tx, { id, data }) =>
      send(id, {
        template: 'verification',
        to: data.email,
        data: { name: data.name, email: data.email, token: data.token, expiresAt: data.expires_at },
      }),
    'auth.password_reset.requested': (_tx, { id, data }) =>
      send(id, {
        template: 'password-reset',
        to: data.email,
        data: { name: data.name, email: data.email, token: data.token, expiresAt: data.expires_at },
      }),
    'auth.two_factor.code_requested': (_tx, { id, data }) =>
      send(id, {
        template: 'two-factor-code',
        to: data.email,
        data: { name: data.name, code: data.code, purpose: data.purpose, expiresAt: data.expires_at },
      }),
    'auth.password.changed': (_tx, { id, data }) =>
      send(id, {
        template: 'password-changed',
        to: data.email,
        data: { name: data.name, email: data.email, changedAt: data.changed_at },
      }),
    'auth.user.deleted': (_tx, { id, data }) =>
      send(id, { template: 'account-deleted', to: data.email, data: { name: data.name, deletedAt: data.deleted_at } }),
  };
}

import type { EventHandlers } from '@cartable/service-kit';
import type { Queue } from 'bullmq';
import type { MailJob } from '../queue/mail-queue.ts';

/** Which event sends which mail. The job id is the event id: a redelivered event queues nothing new. */
export function mailTriggers(queue: Queue<MailJob>): EventHandlers {
  return {
    'auth.user.registered': async (_tx, event) => {
      const { data } = event;
      await queue.add(
        'verification',
        {
          template: 'verification',
          to: data.email,
          data: {
            name: data.name,
            email: data.email,
            token: data.verification.token,
            expiresAt: data.verification.expires_at,
          },
        },
        { jobId: event.id },
      );
    },
  };
}

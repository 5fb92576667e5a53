import type { EventHandlers } from '@cartable/service-kit';
import { recordMail } from '../queue/outgoing-mails.ts';

/** Which event sends which mail. The mail id is the event id: a redelivered event writes nothing new. */
export const mailTriggers: EventHandlers = {
  // An account created already verified (a seed's) has no link to send.
  'auth.user.registered': async (tx, { id, data }) => {
    if (!data.verification) return;
    await recordMail(tx, id, {
      template: 'verification',
      to: data.email,
      data: {
        name: data.name,
        email: data.email,
        token: data.verification.token,
        expiresAt: data.verification.expires_at,
      },
    });
  },
  'auth.email_verification.requested': (tx, { id, data }) =>
    recordMail(tx, id, {
      template: 'verification',
      to: data.email,
      data: { name: data.name, email: data.email, token: data.token, expiresAt: data.expires_at },
    }),
  'auth.password_reset.requested': (tx, { id, data }) =>
    recordMail(tx, id, {
      template: 'password-reset',
      to: data.email,
      data: { name: data.name, email: data.email, token: data.token, expiresAt: data.expires_at },
    }),
  'auth.two_factor.code_requested': (tx, { id, data }) =>
    recordMail(tx, id, {
      template: 'two-factor-code',
      to: data.email,
      data: { name: data.name, code: data.code, purpose: data.purpose, expiresAt: data.expires_at },
    }),
  'auth.password.changed': (tx, { id, data }) =>
    recordMail(tx, id, {
      template: 'password-changed',
      to: data.email,
      data: { name: data.name, email: data.email, changedAt: data.changed_at },
    }),
  'auth.user.deleted': (tx, { id, data }) =>
    recordMail(tx, id, {
      template: 'account-deleted',
      to: data.email,
      data: { name: data.name, deletedAt: data.deleted_at },
    }),
};

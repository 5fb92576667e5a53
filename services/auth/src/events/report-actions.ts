import { messages } from '@cartable/contracts';
import { type EventHandlers, PermanentEventError } from '@cartable/service-kit';
import type { AuthDeps } from '../deps.ts';
import { deactivateAccount } from '../domain/account-admin.ts';
import { reportApplied } from './published.ts';

const m = messages.auth;

/**
 * A report's decision to deactivate its member (moderation.report.decided, `deactivated`, the
 * target's owner whatever the target), applied in the consumer's transaction and answered
 * (auth.report.applied) in the same one, so that moderation closes the reports. Moderation refuses
 * an administrator's decision about their own account; one arriving all the same can never apply.
 */
export function reportActions({ revocation }: Pick<AuthDeps, 'revocation'>): EventHandlers {
  return {
    'moderation.report.decided': async (_tx, { data }, t) => {
      if (data.decision !== 'deactivated' || !data.target_owner_id) return;
      if (!t) throw new Error('moderation.report.decided needs the unit of work: it answers by event');
      if (data.target_owner_id === data.moderator_id) throw new PermanentEventError(m.cannotDeactivateSelf);
      const { outcome } = await deactivateAccount(
        t,
        revocation,
        data.target_owner_id,
        data.note ?? 'Compte signalé',
        data.moderator_id,
      );
      await reportApplied(t, data.report_ids, outcome);
    },
  };
}

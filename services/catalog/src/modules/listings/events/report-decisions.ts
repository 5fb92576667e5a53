import type { EventHandlers, Storage } from '@cartable/service-kit';
import { hideListing } from '../domain/moderation.ts';
import { reportApplied } from '../events.ts';

/**
 * A report's decision to hide a listing (moderation.report.decided, `hidden` on a book), applied
 * in the consumer's transaction, then answered (catalog.report.applied) in that same transaction
 * so that moderation closes the reports. Other decisions are not catalog's.
 */
export function listingReportActions(storage: Storage): EventHandlers {
  return {
    'moderation.report.decided': async (_tx, { data }, t) => {
      if (data.decision !== 'hidden' || data.target_type !== 'book') return;
      if (!t) throw new Error('moderation.report.decided needs the unit of work: it answers by event');
      const id = Number(data.target_id);
      const outcome = Number.isSafeInteger(id)
        ? await hideListing(t, storage, id, data.moderator_id, data.note ?? 'Annonce signalée')
        : 'gone';
      await reportApplied(t, data.report_ids, outcome);
    },
  };
}

import type { ClassList, ClassListMatchFoundEvent } from '@cartable/contracts';
import type { Transaction } from '@cartable/service-kit';

/** A proposal's outcome, for its author (notifications). */
export function listReviewed(t: Transaction, list: ClassList, type: 'published' | 'rejected', reason: string | null) {
  return t.record(`catalog.class_list.${type}`, {
    list_id: list.id,
    school_year: list.school_year,
    level_name: list.level.name,
    school_name: list.school_name,
    proposed_by: list.proposed_by,
    reason,
    at: new Date().toISOString(),
  });
}

/** A book missing from a member's saved list was listed near them. */
export function matchFound(t: Transaction, data: ClassListMatchFoundEvent) {
  return t.record('catalog.class_list.match_found', data);
}

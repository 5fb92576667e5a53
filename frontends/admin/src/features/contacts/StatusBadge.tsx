import { Badge } from '@cartable/ui';
import { CONTACT_STATUS_LABELS, CONTACT_STATUS_TONES, type ContactStatus } from './api/contacts';

/** Status of a contact message: Nouveau, Lu, Répondu, Archivé. */
export function StatusBadge({ status }: { status: ContactStatus }) {
  return <Badge tone={CONTACT_STATUS_TONES[status] ?? 'neutral'}>{CONTACT_STATUS_LABELS[status] ?? status}</Badge>;
}

import type { SubscriptionStatus } from '@cartable/contracts';
import { subscriptionStatusLabels } from '@cartable/contracts/labels';
import { Badge, type BadgeTone } from '@cartable/ui';

const TONES: Record<SubscriptionStatus, BadgeTone> = {
  pending_payment: 'accent',
  active: 'success',
  expired: 'neutral',
  cancelled: 'neutral',
  refunded: 'ocean',
};

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatus }) {
  return <Badge tone={TONES[status]}>{subscriptionStatusLabels[status]}</Badge>;
}

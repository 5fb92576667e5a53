import type { PaymentStatus } from '@cartable/contracts';
import { paymentStatusLabels } from '@cartable/contracts/labels';
import { Badge, type BadgeTone } from '@cartable/ui';

const TONES: Record<PaymentStatus, BadgeTone> = {
  pending: 'accent',
  submitted: 'ocean',
  ambiguous: 'accent',
  paid: 'success',
  failed: 'danger',
  expired: 'neutral',
};

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return <Badge tone={TONES[status]}>{paymentStatusLabels[status]}</Badge>;
}

import { Badge, type BadgeTone, formatPrice } from '@cartable/ui';
import type { Transaction, TransactionStatus } from '../../entities/transaction/api/transactions';

export const STATUS_OPTIONS: Array<[TransactionStatus, string]> = [
  ['proposed', 'Proposée'],
  ['confirmed', 'Confirmée'],
  ['declined', 'Refusée'],
  ['cancelled', 'Annulée'],
];

const TONES: Record<TransactionStatus, BadgeTone> = {
  proposed: 'accent',
  confirmed: 'success',
  declined: 'danger',
  cancelled: 'neutral',
};

export function StatusBadge({ status, label }: { status: TransactionStatus; label: string }) {
  return (
    <Badge tone={TONES[status]} data-testid="transaction-status">
      {label}
    </Badge>
  );
}

/** « Vente à 4 000 FCFA », « Échange contre « … » », « Don ». */
export function termsOf(t: Pick<Transaction, 'kind' | 'price' | 'exchange_book'>): string {
  if (t.kind === 'sale') return t.price ? `Vente à ${formatPrice(t.price)}` : 'Vente à 0 FCFA';
  if (t.kind === 'exchange') return t.exchange_book ? `Échange contre « ${t.exchange_book.title} »` : 'Échange';
  return 'Don';
}

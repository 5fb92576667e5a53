import { StarIcon } from '@cartable/ui';

/**
 * The seller badge of an active member plan: `seller.badge` on a book, `badge` of
 * GET /users/{id}/deals on a public profile; the plan's name (« Vendeur Pro »…). Nothing when null.
 */
export function SellerBadge({ badge, className = '' }: { badge: string | null | undefined; className?: string }) {
  if (!badge?.trim()) return null;
  return (
    <span
      data-testid="seller-badge"
      title="Vendeur abonné à une formule Cartable"
      className={`inline-flex max-w-full items-center gap-1 rounded-full bg-accent-200 px-2 py-0.5 text-xs font-semibold text-accent-900 ${className}`}
    >
      <StarIcon size={12} filled className="shrink-0" />
      <span className="truncate">{badge}</span>
    </span>
  );
}

import type { UsualPrice as Usual } from '@cartable/contracts';
import { formatPrice } from '@cartable/ui';

/**
 * « Prix habituel » under a listing's price: what the same book in the same condition sold for
 * here (the server gives it only from enough sales), and where this price stands against it.
 */
export function UsualPrice({ usual, price, condition }: { usual: Usual; price: number; condition: string }) {
  const where =
    price < usual.low ? 'Moins cher que d’habitude.' : price > usual.high ? 'Plus cher que d’habitude.' : null;
  return (
    <p className="mt-1 text-sm text-slate-600">
      Prix habituel : <strong className="text-slate-900">{formatPrice(usual.median)}</strong> (de{' '}
      {formatPrice(usual.low)} à {formatPrice(usual.high)}, {usual.deals} ventes conclues en «&nbsp;{condition}&nbsp;»).
      {where ? ` ${where}` : null}
    </p>
  );
}

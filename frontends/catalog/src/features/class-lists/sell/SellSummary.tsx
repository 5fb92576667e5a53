import { buttonClasses, CheckCircleIcon, formatPrice } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { Ref } from 'react';
import { type Item, type Lot, plural, type Row } from './publication';
import { digits, type Sale } from './SaleFields';

const price = (sale: Sale) => formatPrice(Number(digits(sale.price)), { zeroLabel: 'Don' });
const linkClasses =
  'inline-flex min-h-11 items-center text-sm font-semibold text-primary-800 underline underline-offset-2';

/**
 * What was published, each listing with its link and price, and where to go next. It takes the
 * focus once the last listing went out, so a screen reader reads it.
 */
export function SellSummary({
  summaryRef,
  published,
  lot,
}: {
  summaryRef: Ref<HTMLDivElement>;
  /** One listing per book: the books published, each with its row. */
  published: Array<{ item: Item; row: Row }>;
  /** Sold as one lot: the lot, its title and its books (then `published` is empty). */
  lot: { lot: Lot; title: string; items: Item[] } | null;
}) {
  return (
    <div
      ref={summaryRef}
      tabIndex={-1}
      className="rounded-xl border border-primary-200 bg-primary-50 p-4 focus:outline-none"
      data-testid="sell-summary"
    >
      <p className="flex items-center gap-2 text-lg font-semibold text-primary-900" role="status">
        <CheckCircleIcon size={22} />{' '}
        {lot
          ? `Lot de ${lot.items.length} manuels publié`
          : plural(published.length, 'annonce publiée', 'annonces publiées')}
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {lot
          ? 'Il est visible dès maintenant, et chacun de ses manuels le fait trouver. Vous pouvez le modifier ou ajouter des photos depuis Mes manuels.'
          : 'Elles sont visibles dès maintenant. Vous pouvez les modifier ou ajouter des photos depuis Mes manuels.'}
      </p>
      {lot ? (
        <>
          <p className="mt-3 flex flex-wrap items-center gap-x-2">
            <Link to={`/books/${lot.lot.bookId}`} className={linkClasses}>
              {lot.title}
            </Link>
            <span className="text-sm text-slate-700">{price(lot.lot)}</span>
          </p>
          <ul className="list-disc space-y-0.5 pl-5 text-sm text-slate-700">
            {lot.items.map((item) => (
              <li key={item.id}>{item.title}</li>
            ))}
          </ul>
        </>
      ) : (
        <ul className="mt-3 space-y-1">
          {published.map(({ item, row }) => (
            <li key={item.id} className="flex flex-wrap items-center gap-x-2">
              <Link to={`/books/${row.bookId}`} className={linkClasses}>
                {item.title}
              </Link>
              <span className="text-sm text-slate-700">{price(row)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to="/my-books" className={buttonClasses('primary')}>
          Voir Mes manuels
        </Link>
        <Link to="/echanges" className={buttonClasses('outline')}>
          Échanger mes anciens manuels
        </Link>
      </div>
    </div>
  );
}

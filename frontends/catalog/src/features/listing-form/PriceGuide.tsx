import { conditionLabels } from '@cartable/contracts/labels';
import { formatPrice, Spinner } from '@cartable/ui';
import type { ReactNode } from 'react';
import { useDebounce } from 'use-debounce';
import { type GuidedBook, usePriceGuide } from './api/price-guide';

/** Typing a title asks the guide once the typing pauses. */
const ASK_AFTER_MS = 400;

const sales = (n: number) => (n > 1 ? `${n} ventes conclues` : `${n} vente conclue`);
const offers = (n: number) => (n > 1 ? `${n} annonces` : '1 annonce');

/**
 * Beside the price of the listing form: what the same book in the same condition sold for here
 * (« Prix habituel », from at least the minimum of sales the server holds to), a button to take
 * it, and the offers of the moment. Says plainly when there are too few sales to suggest a price.
 */
export function PriceGuide({ book, onUse }: { book: GuidedBook; onUse: (price: number) => void }) {
  const [title] = useDebounce(book.title.trim(), ASK_AFTER_MS);
  const [isbn] = useDebounce(book.isbn.trim(), ASK_AFTER_MS);
  const guide = usePriceGuide({ ...book, title, isbn });
  const condition = book.condition ? conditionLabels[book.condition] : null;

  let body: ReactNode;
  if (!condition || (title.length < 2 && !isbn)) {
    body = <p>Indiquez le titre (ou l’ISBN) et l’état : nous vous dirons à quel prix ce manuel se vend ici.</p>;
  } else if (guide.isPending) {
    body = (
      <p className="flex items-center gap-2">
        <Spinner size="sm" label={null} /> Recherche du prix habituel…
      </p>
    );
  } else if (guide.isError || !guide.data) {
    body = <p>Le prix habituel n’a pas pu être chargé. Vous pouvez fixer votre prix librement.</p>;
  } else {
    const { usual, deals, listings, min_deals: minDeals, months } = guide.data;
    body = (
      <>
        {usual ? (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p>
              <span className="font-semibold text-slate-900">Prix habituel : {formatPrice(usual.median)}</span>
              <br />
              de {formatPrice(usual.low)} à {formatPrice(usual.high)}, d’après {sales(usual.deals)} en «&nbsp;
              {condition}&nbsp;» ces {months} derniers mois.
            </p>
            <button
              type="button"
              className="min-h-11 rounded-lg border border-ocean-600 px-3 text-sm font-semibold text-ocean-700 hover:bg-ocean-50"
              onClick={() => onUse(usual.median)}
            >
              Utiliser ce prix
            </button>
          </div>
        ) : (
          <p>
            Pas encore assez de ventes de ce manuel en «&nbsp;{condition}&nbsp;» pour conseiller un prix
            {deals > 0 ? ` (${sales(deals)}, il en faut ${minDeals})` : ''}.
          </p>
        )}
        {listings.count > 0 && listings.low !== null && listings.high !== null ? (
          <p className="mt-1">
            En vente en ce moment : {offers(listings.count)}{' '}
            {listings.low === listings.high
              ? `à ${formatPrice(listings.low)}`
              : `de ${formatPrice(listings.low)} à ${formatPrice(listings.high)}`}
            .
          </p>
        ) : null}
      </>
    );
  }

  return (
    <section
      aria-label="Prix habituel de ce manuel"
      aria-live="polite"
      className="mt-3 rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
    >
      {body}
    </section>
  );
}

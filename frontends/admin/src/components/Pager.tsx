import { ChevronLeftIcon, ChevronRightIcon, cn } from '@cartable/ui';
import { pagerItems } from '../lib/moderation';

const ITEM =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-lg border px-3 text-sm font-semibold transition-colors';
const PLAIN = cn(
  ITEM,
  'border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50',
);

/** Numbered pages (window of 5, first and last, ellipses) with previous and next. */
export function Pager({
  page,
  lastPage,
  onPage,
  label = 'Pagination',
}: {
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  const items = pagerItems(page, lastPage);
  if (items.length === 0) return null;
  return (
    <nav aria-label={label} className="mt-5 flex flex-wrap items-center justify-center gap-1.5">
      <button
        type="button"
        className={PLAIN}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label="Page précédente"
      >
        <ChevronLeftIcon size={18} />
      </button>
      <ul className="flex flex-wrap items-center gap-1.5">
        {items.map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className={item === page ? cn(ITEM, 'border-primary-700 bg-primary-700 text-white') : PLAIN}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                onClick={() => item !== page && onPage(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ),
        )}
      </ul>
      <button
        type="button"
        className={PLAIN}
        disabled={page >= lastPage}
        onClick={() => onPage(page + 1)}
        aria-label="Page suivante"
      >
        <ChevronRightIcon size={18} />
      </button>
    </nav>
  );
}

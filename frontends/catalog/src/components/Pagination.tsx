import { ChevronLeftIcon, ChevronRightIcon, cn } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { pageWindow } from '../lib/catalogue';

export interface PaginationProps {
  page: number;
  lastPage: number;
  /** URL of a page (links: the back button and "open in a new tab" work). */
  hrefFor: (page: number) => string;
  className?: string;
}

const ITEM =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-lg border px-3 text-sm font-semibold transition-colors';

/** At most 5 numbered pages with previous and next (SPEC section 2). */
export function Pagination({ page, lastPage, hrefFor, className }: PaginationProps) {
  if (lastPage <= 1) return null;
  const pages = pageWindow(page, lastPage);
  const edge = (target: number, label: string, children: ReactNode, disabled: boolean) =>
    disabled ? (
      <span className={cn(ITEM, 'cursor-not-allowed border-slate-200 bg-slate-50 text-slate-400')} aria-disabled="true">
        {children}
      </span>
    ) : (
      <Link
        to={hrefFor(target)}
        className={cn(ITEM, 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50')}
        aria-label={label}
      >
        {children}
      </Link>
    );

  return (
    <nav aria-label="Pagination" className={cn('flex flex-wrap items-center justify-center gap-1.5', className)}>
      {edge(
        page - 1,
        'Page précédente',
        <>
          <ChevronLeftIcon size={18} />
          <span className="sr-only sm:not-sr-only sm:ml-1">Précédent</span>
        </>,
        page <= 1,
      )}
      <ul className="flex items-center gap-1.5">
        {pages.map((n) => (
          <li key={n}>
            {n === page ? (
              <span aria-current="page" className={cn(ITEM, 'border-primary-700 bg-primary-700 text-white')}>
                <span className="sr-only">Page </span>
                {n}
              </span>
            ) : (
              <Link
                to={hrefFor(n)}
                className={cn(ITEM, 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50')}
                aria-label={`Page ${n}`}
              >
                {n}
              </Link>
            )}
          </li>
        ))}
      </ul>
      {edge(
        page + 1,
        'Page suivante',
        <>
          <span className="sr-only sm:not-sr-only sm:mr-1">Suivant</span>
          <ChevronRightIcon size={18} />
        </>,
        page >= lastPage,
      )}
    </nav>
  );
}

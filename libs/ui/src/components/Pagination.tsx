import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../cn';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons';

export type PageItem = number | 'gap-start' | 'gap-end';

/**
 * The numbered pages to show: a window of `size` pages centred on the current one and, with
 * `edges`, the first and the last pages with a gap marker where pages are skipped. Empty when
 * there is only one page.
 */
export function pageItems(current: number, last: number, { size = 5, edges = false } = {}): PageItem[] {
  if (last <= 1) return [];
  const count = Math.min(size, last);
  let start = Math.max(1, current - Math.floor(count / 2));
  start = Math.min(start, last - count + 1);
  const end = start + count - 1;
  const items: PageItem[] = [];
  if (edges && start > 1) {
    items.push(1);
    if (start > 2) items.push('gap-start');
  }
  for (let n = start; n <= end; n += 1) items.push(n);
  if (edges && end < last) {
    if (end < last - 1) items.push('gap-end');
    items.push(last);
  }
  return items;
}

interface PaginationBase {
  page: number;
  lastPage: number;
  /** Also show the first and last pages, with ellipses (the window alone otherwise). */
  edges?: boolean;
  /** Accessible name of the navigation landmark. */
  label?: string;
  /** "Précédent" and "Suivant" written beside the arrows from `sm`. */
  showEdgeLabels?: boolean;
  /** Smaller buttons on phones (narrow columns). */
  compact?: boolean;
  className?: string;
}

export type PaginationProps = PaginationBase &
  (
    | {
        /** Links: the URL of a page (the back button and "open in a new tab" work). */
        hrefFor: (page: number) => string;
        onPage?: never;
      }
    | {
        /** Buttons: called with the page chosen. */
        onPage: (page: number) => void;
        hrefFor?: never;
      }
  );

const ITEM = 'inline-flex items-center justify-center rounded-lg border text-sm font-semibold transition-colors';
const SIZE = { regular: 'h-10 min-w-10 px-3', compact: 'h-9 min-w-8 px-2 sm:h-10 sm:min-w-10 sm:px-3' };
const PLAIN = 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50';
const CURRENT = 'border-primary-700 bg-primary-700 text-white';
/** The arrows have no text: 44 px wide on phones, as every control without text. */
const ARROW = 'max-md:min-w-11';

/**
 * Numbered pages with previous and next, as links (`hrefFor`) or buttons (`onPage`). The current
 * page carries aria-current="page"; the arrows are named "Page précédente" and "Page suivante".
 */
export function Pagination({
  page,
  lastPage,
  hrefFor,
  onPage,
  edges = false,
  label = 'Pagination',
  showEdgeLabels = false,
  compact = false,
  className,
}: PaginationProps) {
  const items = pageItems(page, lastPage, { edges });
  if (items.length === 0) return null;
  const item = cn(ITEM, SIZE[compact ? 'compact' : 'regular']);
  const gap = compact ? 'gap-1 sm:gap-1.5' : 'gap-1.5';

  const edge = (target: number, name: string, children: ReactNode, disabled: boolean) => {
    if (hrefFor) {
      return disabled ? (
        <span
          className={cn(item, ARROW, 'cursor-not-allowed border-slate-200 bg-slate-50 text-slate-400')}
          aria-disabled="true"
        >
          {children}
        </span>
      ) : (
        <Link to={hrefFor(target)} className={cn(item, ARROW, PLAIN)} aria-label={name}>
          {children}
        </Link>
      );
    }
    return (
      <button
        type="button"
        className={cn(item, ARROW, PLAIN, 'disabled:cursor-not-allowed disabled:opacity-50')}
        disabled={disabled}
        onClick={() => onPage?.(target)}
        aria-label={name}
      >
        {children}
      </button>
    );
  };

  const number = (n: number) => {
    const current = n === page;
    if (hrefFor) {
      return current ? (
        <span aria-current="page" className={cn(item, CURRENT)}>
          <span className="sr-only">Page </span>
          {n}
        </span>
      ) : (
        <Link to={hrefFor(n)} className={cn(item, PLAIN)} aria-label={`Page ${n}`}>
          {n}
        </Link>
      );
    }
    return (
      <button
        type="button"
        className={cn(item, current ? CURRENT : cn(PLAIN, 'disabled:cursor-not-allowed disabled:opacity-50'))}
        aria-current={current ? 'page' : undefined}
        aria-label={`Page ${n}`}
        onClick={() => !current && onPage?.(n)}
      >
        {n}
      </button>
    );
  };

  return (
    <nav aria-label={label} className={cn('flex flex-wrap items-center justify-center', gap, className)}>
      {edge(
        page - 1,
        'Page précédente',
        <>
          <ChevronLeftIcon size={18} />
          {showEdgeLabels ? <span className="sr-only sm:not-sr-only sm:ml-1">Précédent</span> : null}
        </>,
        page <= 1,
      )}
      <ul className={cn('flex flex-wrap items-center', gap)}>
        {items.map((entry) =>
          typeof entry === 'number' ? (
            <li key={entry}>{number(entry)}</li>
          ) : (
            <li key={entry} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ),
        )}
      </ul>
      {edge(
        page + 1,
        'Page suivante',
        <>
          {showEdgeLabels ? <span className="sr-only sm:not-sr-only sm:mr-1">Suivant</span> : null}
          <ChevronRightIcon size={18} />
        </>,
        page >= lastPage,
      )}
    </nav>
  );
}

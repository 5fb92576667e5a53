import { cn, EmptyState, LoadFailed, type RetryableRead, Skeleton } from '@cartable/ui';
import type { ReactNode } from 'react';
import { LOAD_ERROR } from './messages';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Width or alignment of the column (applied to its header and cells). */
  className?: string;
}

/** What DataTable needs of a TanStack query: its state, not its data. */
export interface TableQueryState extends RetryableRead {
  isPending: boolean;
  isError: boolean;
}

export interface DataTableProps<Row> {
  /** Read by screen readers (the table's caption) and used in the loading label. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string | number;
  /** The same row as a card, shown at 768 px or less instead of the table (SPEC section 9). */
  card: (row: Row) => ReactNode;
  query: TableQueryState;
  /** Explanation under the error title when the server gave none. */
  errorText?: string;
  empty: { title: ReactNode; description?: ReactNode; action?: ReactNode; icon?: ReactNode };
  /** data-testid of each row and card: `${testId}-row`, `${testId}-card`. */
  testId?: string;
  rowClassName?: (row: Row) => string | undefined;
  /**
   * Rows of one line beside 44 px buttons (towns): cells centred and tight, so that a row is the
   * buttons' height, its words in the middle, rather than the words at the top of a tall row.
   */
  oneLine?: boolean;
}

/**
 * A back-office list: a table above 768 px that fits its column (cells wrap, no horizontal
 * scroll at 1366 px with the menu open), cards below; skeletons while loading, a French error
 * with « Réessayer », and an empty state. Rows stay on screen while a new page loads.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  card,
  query,
  errorText,
  empty,
  testId = 'data',
  rowClassName,
  oneLine = false,
}: DataTableProps<Row>) {
  if (query.isError && !rows) {
    return <LoadFailed title={LOAD_ERROR} query={query} fallback={errorText ?? 'La liste n’a pas pu être chargée.'} />;
  }
  if (!rows) {
    return (
      <div className="space-y-3" data-testid={`${testId}-loading`} aria-busy="true">
        <span className="sr-only" role="status">
          {caption} : chargement…
        </span>
        {[0, 1, 2, 3, 4].map((n) => (
          <Skeleton key={n} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  if (rows.length === 0) {
    return <EmptyState icon={empty.icon} title={empty.title} description={empty.description} action={empty.action} />;
  }
  return (
    <div aria-busy={query.isFetching} className={cn(query.isFetching && 'opacity-70 transition-opacity')}>
      <div className="hidden rounded-xl border border-slate-200 bg-white desk:block">
        <table className="w-full table-auto text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" className={cn('px-3 py-3 font-semibold', column.className)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={rowKey(row)} data-testid={`${testId}-row`} className={rowClassName?.(row)}>
                {columns.map((column) => (
                  <td
                    key={column.key}
                    className={cn(
                      'px-3 break-words',
                      oneLine ? 'py-1 align-middle' : 'py-3 align-top',
                      column.className,
                    )}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 desk:hidden" aria-label={caption}>
        {rows.map((row) => (
          <li
            key={rowKey(row)}
            data-testid={`${testId}-card`}
            className={cn('rounded-xl border border-slate-200 bg-white p-4 shadow-sm', rowClassName?.(row))}
          >
            {card(row)}
          </li>
        ))}
      </ul>
    </div>
  );
}

import { useSearchParams } from '@cartable/ui/router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { catalogueQuery } from './api/search';
import { BooksPageSkeleton } from './BooksPageSkeleton';
import { filtersToQuery, parseFilters } from './filters';
import type { BooksPageParts } from './parts';

const BooksPage = lazy(() => import(/* webpackChunkName: "books-page" */ './BooksPage'));

/**
 * /books: the page's first results are asked for at once, while its code downloads (the same
 * query as the page's, which then finds it in the cache or in flight); its frame shows meanwhile.
 */
export default function BooksRoute(parts: BooksPageParts) {
  const [params] = useSearchParams();
  const query = useMemo(() => filtersToQuery(parseFilters(params)), [params]);
  useQuery({ ...catalogueQuery(query), placeholderData: keepPreviousData });
  return (
    <Suspense fallback={<BooksPageSkeleton />}>
      <BooksPage {...parts} />
    </Suspense>
  );
}

import { PageSpinner } from '@cartable/ui';
import { useParams } from '@cartable/ui/router';
import { lazy, Suspense } from 'react';
import { useBook } from '../../shared/api/books';
import type { BookPageParts } from './parts';

const BookDetailPage = lazy(() => import(/* webpackChunkName: "book-page" */ './BookDetailPage'));

/**
 * /books/:id: the book is asked for at once, while the page's code downloads (the same query, so
 * the page finds it in the cache or in flight), instead of after it.
 */
export default function BookRoute(parts: BookPageParts) {
  const { id = '' } = useParams();
  useBook(id);
  return (
    <Suspense fallback={<PageSpinner label="Chargement du manuel…" />}>
      <BookDetailPage {...parts} />
    </Suspense>
  );
}

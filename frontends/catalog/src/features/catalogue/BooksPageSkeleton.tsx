import { Container, PageHeader, Skeleton } from '@cartable/ui';
import { BookGrid } from '../../entities/book/BookCard';
import { PER_PAGE } from './filters';

/**
 * /books while its code downloads: the real heading and the frame of the page at its size (search
 * bar, result line, sort and filters, cards), so nothing moves when the page takes over.
 */
export function BooksPageSkeleton() {
  return (
    <Container className="py-6 sm:py-10">
      <PageHeader
        title="Manuels scolaires"
        description="Cherchez un titre, un auteur ou une classe (ex. : maths 6e), puis affinez par prix ou ville."
        actions={<Skeleton className="h-10 w-44 rounded-lg max-sm:hidden" />}
      />
      <Skeleton className="h-12 w-full rounded-lg" />
      <div className="mt-6 lg:grid lg:grid-cols-[18rem_minmax(0,1fr)] lg:gap-8">
        <div className="max-lg:hidden" />
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <Skeleton className="mr-auto h-4 w-40" />
            <Skeleton className="h-9 w-20 rounded-lg" />
          </div>
          <div className="mt-3 flex gap-2 lg:hidden">
            <Skeleton className="h-9 w-24 rounded-lg" />
            <Skeleton className="h-9 flex-1 rounded-lg" />
          </div>
          <BookGrid books={undefined} loading count={PER_PAGE} className="mt-4 lg:grid-cols-3" />
        </div>
      </div>
    </Container>
  );
}

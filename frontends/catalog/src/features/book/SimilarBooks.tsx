import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { BookGrid } from '../../entities/book/BookCard';
import { booksQuery } from '../../shared/api/books';
import type { Book } from '../../shared/books';

/** 4 similar books: same main category, this one excluded (SPEC section 9). */
export function SimilarBooks({ book }: { book: Book }) {
  const categoryId = book.categories?.[0]?.id ?? book.category?.id;
  const query = { category_id: categoryId, exclude_id: book.id, limit: 4 };
  const similar = useQuery({ ...booksQuery(query), enabled: categoryId !== undefined, staleTime: 5 * 60_000 });
  if (categoryId === undefined || similar.isError) return null;
  if (similar.data && similar.data.data.length === 0) return null;
  return (
    <section aria-labelledby="similaires-title" className="mt-12">
      <div className="mb-4 flex items-end justify-between gap-3">
        <h2 id="similaires-title" className="text-xl font-bold text-slate-900">
          Manuels similaires
        </h2>
        <Link
          to={`/books?category_ids=${categoryId}`}
          className="text-sm font-semibold text-primary-700 hover:underline"
        >
          Voir tout
        </Link>
      </div>
      <BookGrid books={similar.data?.data.slice(0, 4)} loading={similar.isPending} count={4} />
    </section>
  );
}

import type { BookCondition, PriceGuide } from '@cartable/contracts';
import { api } from '@cartable/ui';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';

/** The book being listed, as the form knows it: the guide needs a condition and a title or an ISBN. */
export interface GuidedBook {
  title: string;
  isbn: string;
  condition: BookCondition | '';
  /** The listing being edited: its own price is not an offer to compare with. */
  excludeId?: number | undefined;
}

/** GET /books/price-guide: what the same book in this condition sold for, and the offers of the moment. */
export const priceGuideQuery = (book: GuidedBook) =>
  queryOptions({
    queryKey: ['books', 'price-guide', book] as const,
    queryFn: ({ signal }) =>
      api.get<PriceGuide>('/books/price-guide', {
        query: {
          title: book.title,
          isbn: book.isbn,
          condition: book.condition,
          ...(book.excludeId ? { exclude_id: book.excludeId } : {}),
        },
        signal,
      }),
    // Sales move slowly: a guide read a minute ago is still the guide.
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });

export const usePriceGuide = (book: GuidedBook) =>
  useQuery({ ...priceGuideQuery(book), enabled: Boolean(book.condition && (book.title.length >= 2 || book.isbn)) });

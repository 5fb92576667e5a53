import type { Book, BookDetail } from '../../shared/books';

/** Why a visitor writes to a seller: a question, or an exchange proposal (prefilled text). */
export type ContactIntent = 'contact' | 'exchange';

/** The seller of a book (the detail carries `seller`, lists only `user_id`). */
export function sellerIdOf(book: Pick<Book, 'user_id'> & Partial<Pick<BookDetail, 'seller'>>): string {
  return book.seller?.id ?? book.user_id;
}

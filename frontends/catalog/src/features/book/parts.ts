import type { ReactNode } from 'react';
import type { BookDetail } from '../../shared/books';

/**
 * What a book's page shows from other features: the comments under it and the dialog that writes
 * to its seller. The route table (src/routes.tsx) composes them; the page only places them.
 */
export interface BookPageParts {
  comments: (book: BookDetail) => ReactNode;
  /** Rendered once a member asks to contact the seller or to propose an exchange. */
  contactDialog: (props: {
    book: BookDetail;
    sellerName: string;
    intent: 'contact' | 'exchange';
    onClose: () => void;
  }) => ReactNode;
}

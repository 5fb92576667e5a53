import { conditionFlagLabels } from '@cartable/contracts/labels';
import { Badge, formatDate, formatNumber } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { type BookDetail, conditionLabel, isNegotiable, statusLabel } from '../../shared/books';

/** « Caractéristiques »: the book's facts, one row each; a fact the listing lacks has no row. */
export function BookCharacteristics({
  book,
  categories,
}: {
  book: BookDetail;
  categories: Array<NonNullable<BookDetail['category']>>;
}) {
  const details: Array<[string, ReactNode]> = [
    ['Auteur', book.author],
    ['Éditeur', book.publisher],
    ['Année de publication', book.publication_year],
    ['ISBN', book.isbn],
    ['État', conditionLabel(book)],
    [
      'Précisions sur l’état',
      book.condition_flags?.length ? (
        <ul key="flags" className="flex flex-wrap gap-1.5" data-testid="condition-flags">
          {book.condition_flags.map((flag) => (
            <li key={flag}>
              <Badge tone="accent">{conditionFlagLabels[flag]}</Badge>
            </li>
          ))}
        </ul>
      ) : (
        'Ni annotation, ni tampon, ni page manquante signalés par le vendeur'
      ),
    ],
    [
      'Catégories',
      categories.length ? (
        <ul key="categories" className="flex flex-wrap gap-1.5">
          {categories.map((category) => (
            <li key={category.id}>
              <Link
                to={`/books?category_ids=${category.id}`}
                className="tap-target text-primary-700 underline-offset-2 hover:underline"
              >
                {category.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null,
    ],
    ['Ville', book.city ? [book.city.name, book.city.province].filter(Boolean).join(', ') : null],
    ['Prix négociable', isNegotiable(book) ? 'Oui' : 'Non'],
    ['Échange possible', book.is_exchange_possible ? 'Oui' : 'Non'],
    ['Statut', statusLabel(book.status)],
    ['Publiée le', book.created_at ? formatDate(book.created_at) : null],
    ['Vues', typeof book.views === 'number' ? formatNumber(book.views) : null],
  ];

  return (
    <section aria-labelledby="caracteristiques-title">
      <h2 id="caracteristiques-title" className="text-xl font-bold text-slate-900">
        Caractéristiques
      </h2>
      <table className="mt-3 w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-sm">
        <tbody>
          {details
            .filter(([, value]) => value !== null && value !== undefined && value !== '')
            .map(([label, value]) => (
              <tr key={label} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="w-2/5 bg-slate-50 px-3 py-2.5 text-left font-medium text-slate-600">
                  {label}
                </th>
                <td className="px-3 py-2.5 text-slate-900">{value}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}

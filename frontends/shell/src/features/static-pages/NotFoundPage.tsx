import { Badge, BookIcon, buttonClasses, Container, formatPrice, MapPinIcon, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

interface SampleBook {
  title: string;
  level: string;
  condition: string;
  city: string;
  price: number;
  cover: string;
}

/** Four static sample cards (SPEC section 2, not-found page). */
const SAMPLE_BOOKS: SampleBook[] = [
  {
    title: 'Mathématiques 6e – CIAM',
    level: '6e',
    condition: 'Très bon état',
    city: 'Libreville',
    price: 4500,
    cover: 'bg-primary-600',
  },
  {
    title: 'Histoire-Géographie du Gabon CM2',
    level: 'CM2',
    condition: 'Bon état',
    city: 'Port-Gentil',
    price: 3000,
    cover: 'bg-ocean-500',
  },
  {
    title: 'Mon livre unique de français CE1',
    level: 'CE1',
    condition: 'État acceptable',
    city: 'Franceville',
    price: 2000,
    cover: 'bg-accent-500',
  },
  {
    title: 'Physique-Chimie 3e – Eurêka',
    level: '3e',
    condition: 'Neuf',
    city: 'Oyem',
    price: 6000,
    cover: 'bg-primary-800',
  },
];

export default function NotFoundPage() {
  useDocumentTitle('Page introuvable');
  return (
    <Container className="py-10 sm:py-16">
      <section className="text-center">
        <p className="text-6xl font-black text-primary-600 sm:text-7xl">404</p>
        <h1 className="mt-3 text-2xl font-bold text-slate-900 sm:text-3xl">Page introuvable</h1>
        <p className="mx-auto mt-3 max-w-lg text-slate-600">
          La page que vous cherchez n'existe pas ou a été déplacée. Pas d'inquiétude : vos manuels vous attendent
          ailleurs !
        </p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/" className={buttonClasses('primary', 'lg')}>
            Retour à l'accueil
          </Link>
          <Link to="/books" className={buttonClasses('outline', 'lg')}>
            Parcourir les manuels
          </Link>
          <Link to="/contact" className={buttonClasses('ghost', 'lg')}>
            Nous contacter
          </Link>
        </div>
      </section>

      <section aria-labelledby="suggestions" className="mt-14">
        <h2 id="suggestions" className="text-lg font-semibold text-slate-900">
          Quelques manuels qui pourraient vous intéresser
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          {SAMPLE_BOOKS.map((book) => (
            <li key={book.title}>
              <Link
                to="/books"
                className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
              >
                <div className={`flex h-24 items-center justify-center text-white sm:h-32 ${book.cover}`}>
                  <BookIcon size={36} />
                </div>
                <div className="flex flex-1 flex-col gap-2 p-3">
                  <div className="flex flex-wrap gap-1">
                    <Badge tone="ocean">{book.level}</Badge>
                    <Badge>{book.condition}</Badge>
                  </div>
                  <h3 className="line-clamp-2 text-sm font-semibold text-slate-900">{book.title}</h3>
                  <p className="flex items-center gap-1 text-xs text-slate-500">
                    <MapPinIcon size={14} />
                    {book.city}
                  </p>
                  <p className="mt-auto font-bold text-primary-700">{formatPrice(book.price)}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </Container>
  );
}

import {
  Alert,
  Avatar,
  Button,
  buttonClasses,
  Card,
  ChevronLeftIcon,
  Container,
  EmptyState,
  errorMessage,
  isNotFound,
  MessageIcon,
  RefreshIcon,
  Skeleton,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, Navigate, useLocation, useNavigate, useParams } from '@cartable/ui/router';
import { BookCover, Price } from '../../entities/book/BookCard';
import { useBook } from '../../shared/api/books';
import { type BookDetail, sameId, statusLabel } from '../../shared/books';
import { messages } from '../../shared/messages';
import { ContactSellerForm, sellerIdOf } from './ContactSellerForm';

/** /contact-seller/:bookId: the book page's contact form on its own page, then the conversation. */
export default function ContactSellerPage() {
  const { bookId = '' } = useParams();
  const { isAuthenticated } = useSession();
  const location = useLocation();
  const book = useBook(bookId, { enabled: isAuthenticated });
  useDocumentTitle(book.data ? `Contacter le vendeur · ${book.data.title}` : 'Contacter le vendeur');

  // The shell's guard already sends visitors to /login; this keeps the remote right on its own.
  if (!isAuthenticated) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?return_url=${encodeURIComponent(back)}`} replace />;
  }

  return (
    <Container className="max-w-2xl py-6 sm:py-10">
      <Link
        to={book.data ? `/books/${book.data.id}` : '/books'}
        className="mb-4 inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline"
      >
        <ChevronLeftIcon size={16} /> {book.data ? "Retour à l'annonce" : 'Retour aux manuels'}
      </Link>
      <h1 className="mb-5 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Contacter le vendeur</h1>

      {book.isPending ? (
        <Card className="p-4 sm:p-6" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement du manuel…
          </span>
          <div className="flex gap-4">
            <Skeleton className="h-24 w-18 shrink-0" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-5 w-3/4" />
              <Skeleton className="h-4 w-1/3" />
              <Skeleton className="h-5 w-24" />
            </div>
          </div>
          <Skeleton className="mt-6 h-32 w-full" />
        </Card>
      ) : book.isError ? (
        isNotFound(book.error) ? (
          <EmptyState
            tone="warning"
            icon={<MessageIcon size={28} />}
            title="Manuel introuvable"
            description="Cette annonce n'existe pas ou a été supprimée."
            action={
              <Link to="/books" className={buttonClasses('primary')}>
                Parcourir les manuels
              </Link>
            }
          />
        ) : (
          <Alert tone="error" title={messages.detailError}>
            <p>{errorMessage(book.error, 'Vérifiez votre connexion puis réessayez.')}</p>
            <Button
              className="mt-3"
              size="sm"
              variant="outline"
              leftIcon={<RefreshIcon size={16} />}
              loading={book.isFetching}
              onClick={() => void book.refetch()}
            >
              Réessayer
            </Button>
          </Alert>
        )
      ) : (
        <ContactCard book={book.data} />
      )}
    </Container>
  );
}

function ContactCard({ book }: { book: BookDetail }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const sellerId = sellerIdOf(book);
  const seller = book.seller;
  const isOwner = sameId(user?.id, sellerId) || sameId(user?.id, book.user_id);
  const available = book.status === 'disponible';

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex gap-4">
        <BookCover src={book.thumbnail} alt="" className="h-24 w-18 shrink-0 rounded-md" />
        <div className="min-w-0">
          <p className="font-semibold leading-snug text-slate-900">
            <Link to={`/books/${book.id}`} className="tap-target hover:underline">
              {book.title}
            </Link>
          </p>
          <p className="truncate text-sm text-slate-600">{book.author}</p>
          <Price value={book.price} className="text-lg" />
        </div>
      </div>
      {seller ? (
        <div className="mt-4 flex items-center gap-3 border-t border-slate-100 pt-4">
          <Avatar name={seller.name} image={seller.profile_image} size="md" />
          <div className="min-w-0">
            <p className="text-xs tracking-wide text-slate-500 uppercase">Vendeur</p>
            <p className="truncate font-medium text-slate-900">{seller.name}</p>
          </div>
        </div>
      ) : null}

      <div className="mt-5">
        {isOwner ? (
          <Alert tone="info" title="C'est votre annonce">
            Vous ne pouvez pas vous contacter vous-même. Les acheteurs intéressés vous écriront ; retrouvez leurs
            messages dans{' '}
            <Link to="/messages" className="font-semibold underline">
              Messages
            </Link>
            .
          </Alert>
        ) : !available ? (
          <Alert tone="warning" title={messages.unavailable}>
            Ce manuel est {statusLabel(book.status).toLowerCase()}.{' '}
            <Link to="/books" className="font-semibold underline">
              Découvrez d'autres manuels
            </Link>
            .
          </Alert>
        ) : (
          <ContactSellerForm
            book={book}
            onSent={() => navigate(`/messages/${book.id}/${sellerId}`)}
            secondaryAction={(busy) => (
              <Link
                to={`/books/${book.id}`}
                className={buttonClasses('outline', 'md')}
                aria-disabled={busy || undefined}
              >
                Annuler
              </Link>
            )}
          />
        )}
      </div>
    </Card>
  );
}

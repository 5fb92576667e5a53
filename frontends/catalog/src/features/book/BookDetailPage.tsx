import { conditionFlagLabels, conditionFlagShortLabels } from '@cartable/contracts/labels';
import {
  Alert,
  Badge,
  BelowFold,
  Button,
  buttonClasses,
  Card,
  ChevronRightIcon,
  Container,
  errorMessage,
  formatPrice,
  hasPermission,
  isNotFound,
  LazyConfirmDialog,
  MapPinIcon,
  MessageIcon,
  notify,
  PageSpinner,
  PencilIcon,
  StarIcon,
  SwapIcon,
  TrashIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useLocation, useNavigate, useParams } from '@cartable/ui/router';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useRef, useState } from 'react';
import { Price } from '../../entities/book/BookCard';
import { BookClassLists } from '../../entities/class-list/BookClassLists';
import { FavouriteButton } from '../../entities/favourite/FavouriteButton';
import { ReportButton } from '../../entities/report/ReportButton';
import { useBook } from '../../shared/api/books';
import {
  type BookDetail as BookDetailT,
  bookImages,
  conditionLabel,
  isNegotiable,
  sameId,
  statusLabel,
  truncate,
} from '../../shared/books';
import { useMetaDescription } from '../../shared/hooks';
import { messages } from '../../shared/messages';
import { useDeleteBook } from './api/book';
import { BookCharacteristics } from './BookCharacteristics';
import { ContactBar } from './ContactBar';
import { ImageGallery } from './ImageGallery';
import { LotContents } from './LotContents';
import type { BookPageParts } from './parts';
import { RemovedListing } from './RemovedListing';
import { rememberViewed } from './recently-viewed';
import { SellerCard } from './SellerCard';
import { ShareButton } from './ShareButton';
import { SimilarBooks } from './SimilarBooks';
import { UsualPrice } from './UsualPrice';

export default function BookDetailPage(parts: BookPageParts) {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const book = useBook(id);

  // A listing that is gone (sold and removed, hidden, deleted) says so; any other failure follows
  // SPEC section 4: a toast and back to the catalogue.
  const gone = isNotFound(book.error);
  useEffect(() => {
    if (!book.isError || gone) return;
    void notify.error(messages.detailError);
    navigate('/books', { replace: true });
  }, [book.isError, gone, navigate]);

  useEffect(() => {
    if (book.data) rememberViewed(book.data.id);
  }, [book.data]);

  useDocumentTitle(book.data?.title ?? 'Manuel');
  useMetaDescription(book.data?.description);

  if (gone) return <RemovedListing />;
  if (!book.data) return <PageSpinner label="Chargement du manuel…" />;
  return <BookDetail book={book.data} parts={parts} />;
}

function BookDetail({ book, parts }: { book: BookDetailT; parts: BookPageParts }) {
  const { user, isAuthenticated } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const _queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'contact' | 'exchange' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const isOwner = isAuthenticated && sameId(user?.id, book.user_id);
  const canManage = isOwner || (isAuthenticated && hasPermission('books.update.any'));
  const available = book.status === 'disponible';
  const canContact = !isOwner && available;
  const seller = book.seller;
  const images = bookImages(book);
  const categories = book.categories?.length ? book.categories : book.category ? [book.category] : [];
  const mainCategory = categories[0];

  const remove = useDeleteBook(book.id, {
    onSuccess: () => {
      void notify.success(messages.deleteSuccess);
      navigate('/my-books', { replace: true });
    },
    onError: (error) => {
      setConfirmDelete(false);
      void notify.error(messages.deleteError, { description: errorMessage(error, '') || undefined });
    },
  });

  /** Visitors sign in first and come back to the contact form (SPEC section 2). */
  const contact = (intent: 'contact' | 'exchange') => {
    if (!isAuthenticated) {
      const back = `/books/${book.id}#${intent}`;
      void notify.info('Connectez-vous pour contacter le vendeur.');
      navigate(`/login?return_url=${encodeURIComponent(back)}`);
      return;
    }
    setDialog(intent);
  };

  // #contact and #exchange (SPEC section 2): scroll there and, for a member, open the form.
  const handledHash = useRef<string | null>(null);
  useEffect(() => {
    const hash = location.hash.replace('#', '');
    if ((hash !== 'contact' && hash !== 'exchange') || handledHash.current === location.key) return;
    handledHash.current = location.key;
    document.getElementById(hash)?.scrollIntoView({ block: 'start' });
    if (isAuthenticated && canContact && (hash === 'contact' || book.is_exchange_possible)) setDialog(hash);
  }, [location.hash, location.key, isAuthenticated, canContact, book.is_exchange_possible]);

  const ownerActions = canManage ? (
    // A grid, not flex-1 in a column: flex-basis 0 let the column squash both buttons to 20 px.
    <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
      <Link to={`/books/edit/${book.id}`} className={buttonClasses('primary', 'md')}>
        <PencilIcon size={18} /> Modifier l'annonce
      </Link>
      <Button variant="danger" leftIcon={<TrashIcon size={18} />} onClick={() => setConfirmDelete(true)}>
        Supprimer
      </Button>
      {isOwner && available && !book.hidden ? (
        <Link
          to={`/books/${book.id}/subscription`}
          className={buttonClasses('accent', 'md', 'sm:col-span-2 lg:col-span-1 xl:col-span-2')}
        >
          <StarIcon size={18} /> Mettre en avant
        </Link>
      ) : null}
    </div>
  ) : null;

  const contactActions =
    !isOwner && canContact ? (
      <div className="flex flex-col gap-2">
        <Button size="lg" leftIcon={<MessageIcon size={18} />} onClick={() => contact('contact')}>
          Contacter le vendeur
        </Button>
        {book.is_exchange_possible ? (
          <Button size="lg" variant="outline" leftIcon={<SwapIcon size={18} />} onClick={() => contact('exchange')}>
            Proposer un échange
          </Button>
        ) : null}
      </div>
    ) : null;

  return (
    <Container className={canContact ? 'pt-4 pb-28 sm:pt-8 lg:pb-12' : 'py-4 sm:py-8'}>
      <nav aria-label="Fil d'Ariane" className="mb-4 text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to="/" className="tap-target hover:underline">
              Accueil
            </Link>
          </li>
          <li aria-hidden="true">
            <ChevronRightIcon size={14} />
          </li>
          <li>
            <Link to="/books" className="tap-target hover:underline">
              Manuels
            </Link>
          </li>
          {mainCategory ? (
            <>
              <li aria-hidden="true">
                <ChevronRightIcon size={14} />
              </li>
              <li>
                <Link to={`/books?category_ids=${mainCategory.id}`} className="tap-target hover:underline">
                  {mainCategory.name}
                </Link>
              </li>
            </>
          ) : null}
          <li aria-hidden="true" className="hidden sm:block">
            <ChevronRightIcon size={14} />
          </li>
          <li aria-current="page" className="hidden max-w-xs truncate font-medium text-slate-900 sm:block">
            {truncate(book.title, 40)}
          </li>
        </ol>
      </nav>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,4fr)] lg:gap-10">
        <div className="mx-auto w-full max-w-md lg:max-w-none">
          <ImageGallery images={images} title={book.title} />
        </div>

        <div className="min-w-0 space-y-5">
          <div>
            <div className="mb-2 flex flex-wrap gap-1.5">
              <Badge tone="primary">{conditionLabel(book)}</Badge>
              {book.condition_flags?.map((flag) => (
                <Badge key={flag} tone="accent" title={conditionFlagLabels[flag]}>
                  {conditionFlagShortLabels[flag]}
                </Badge>
              ))}
              <Badge tone={available ? 'success' : book.status === 'réservé' ? 'accent' : 'neutral'}>
                {statusLabel(book.status)}
              </Badge>
              {isNegotiable(book) && book.price > 0 && available ? <Badge tone="neutral">Prix négociable</Badge> : null}
              {book.is_exchange_possible && available ? (
                <Badge tone="ocean">
                  <SwapIcon size={12} /> Échange possible
                </Badge>
              ) : null}
            </div>
            <h1 className="text-2xl leading-tight font-bold text-slate-900 sm:text-3xl">{book.title}</h1>
            <p className="mt-1 text-slate-600">{book.author}</p>
          </div>

          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <Price value={book.price} className="text-3xl" />
              {book.price === 0 ? (
                <p className="text-sm text-slate-600">Ce manuel est offert par son propriétaire.</p>
              ) : book.usual_price ? (
                <UsualPrice usual={book.usual_price} price={book.price} condition={conditionLabel(book)} />
              ) : null}
            </div>
            <div className="flex flex-wrap gap-2">
              {/* One's own listing is not followed. */}
              {isOwner ? null : <FavouriteButton bookId={book.id} title={book.title} variant="outline" />}
              <ShareButton title={book.title} price={book.price === 0 ? 'Don' : formatPrice(book.price)} />
            </div>
          </div>

          {book.city ? (
            <p className="flex items-center gap-1.5 text-sm text-slate-700">
              <MapPinIcon size={16} className="text-primary-700" />
              {[book.city.name, book.city.province].filter(Boolean).join(', ')}
            </p>
          ) : null}

          <BookClassLists bookId={book.id} />

          {book.lot ? <LotContents items={book.lot.items} /> : null}

          {!available && !isOwner ? (
            <Alert tone="warning" title={messages.unavailable}>
              Ce manuel est {statusLabel(book.status).toLowerCase()}. Découvrez les manuels similaires ci-dessous.
            </Alert>
          ) : null}
          {isOwner ? (
            <Alert tone="info" title="C'est votre annonce">
              Modifiez-la, changez son statut depuis{' '}
              <Link to="/my-books" className="font-semibold underline">
                Mes manuels
              </Link>{' '}
              ou supprimez-la.
            </Alert>
          ) : null}

          {ownerActions}
          {contactActions}
          {isOwner ? null : (
            <div className="-ml-3">
              <ReportButton target={{ type: 'book', id: book.id }} />
            </div>
          )}

          {seller ? (
            <section id="contact" aria-label="Vendeur" className="scroll-mt-24">
              <SellerCard seller={seller} />
            </section>
          ) : (
            <span id="contact" />
          )}

          {book.is_exchange_possible && available && !isOwner ? (
            <section id="exchange" aria-labelledby="exchange-title" className="scroll-mt-24">
              <Card className="border-ocean-200 bg-ocean-50 p-4">
                <h2 id="exchange-title" className="flex items-center gap-2 font-semibold text-ocean-900">
                  <SwapIcon size={18} /> Échange possible
                </h2>
                <p className="mt-1 text-sm text-ocean-900">
                  Le vendeur accepte d'échanger ce manuel contre un autre. Proposez-lui le vôtre par message.
                </p>
              </Card>
            </section>
          ) : null}
        </div>
      </div>

      <div className="mt-10 grid gap-8 lg:grid-cols-[minmax(0,5fr)_minmax(0,4fr)] lg:gap-10">
        <section aria-labelledby="description-title">
          <h2 id="description-title" className="text-xl font-bold text-slate-900">
            Description
          </h2>
          {book.description ? (
            <p className="mt-3 whitespace-pre-line text-slate-700">{book.description}</p>
          ) : (
            <p className="mt-3 text-slate-500">Le vendeur n'a pas ajouté de description.</p>
          )}
        </section>
        <BookCharacteristics book={book} categories={categories} />
      </div>

      {/* Below a phone's first screen: rendered after its paint, their reads asked for then. */}
      <BelowFold>
        <SimilarBooks book={book} />
        {parts.comments(book)}
      </BelowFold>

      {canContact ? <ContactBar title={book.title} price={book.price} onContact={() => contact('contact')} /> : null}

      {dialog !== null && (seller || book.user_id) ? (
        <Suspense fallback={null}>
          {parts.contactDialog({
            intent: dialog,
            onClose: () => setDialog(null),
            book,
            sellerName: seller?.name ?? 'le vendeur',
          })}
        </Suspense>
      ) : null}
      <LazyConfirmDialog
        open={confirmDelete}
        title="Supprimer cette annonce ?"
        description={`« ${book.title} » et ses photos seront supprimés définitivement.`}
        confirmLabel="Supprimer l'annonce"
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmDelete(false)}
      />
    </Container>
  );
}

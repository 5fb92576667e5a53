import {
  Alert,
  BookIcon,
  Button,
  buttonClasses,
  Container,
  cn,
  EmptyState,
  FilterIcon,
  GridIcon,
  ListIcon,
  PageHeader,
  Pagination,
  PlusIcon,
  RefreshIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useNavigate, useSearchParams } from '@cartable/ui/router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { BookGrid } from '../../entities/book/BookCard';
import { useMediaQuery } from '../../shared/hooks';
import { messages } from '../../shared/messages';
import { readPreference, writePreference } from '../../shared/storage';
import { ActiveFilters } from './ActiveFilters';
import { catalogueQuery } from './api/search';
import { FilterPanel } from './FilterPanel';
import {
  activeFilterCount,
  type CatalogueFilters,
  defaultSort,
  filtersToQuery,
  filtersToSearch,
  PER_PAGE,
  parseFilters,
} from './filters';
import type { BooksPageParts } from './parts';
import { SearchBar, SortSelect, Understood } from './SearchControls';

/** The filters drawer of phones: the dialogs (Radix UI) load when it first opens, not with the page. */
const Dialog = lazy(() => import('@cartable/ui/overlays').then((m) => ({ default: m.Dialog })));

type View = 'grid' | 'list';
const VIEW_KEY = 'cartable.booksView';

export default function BooksPage({ saveSearch }: BooksPageParts) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const filters = useMemo(() => parseFilters(params), [params]);
  const isDesktop = useMediaQuery('(min-width: 1024px)');
  const twoColumns = !useMediaQuery('(min-width: 640px)');
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Once opened, the drawer stays mounted (its closing animation, its focus return).
  const [drawerUsed, setDrawerUsed] = useState(false);
  if (drawerOpen && !drawerUsed) setDrawerUsed(true);
  const [view, setView] = useState<View>(() => readPreference(VIEW_KEY, ['grid', 'list'] as const, 'grid'));
  const resultsRef = useRef<HTMLElement>(null);
  useDocumentTitle(filters.query ? `Recherche « ${filters.query} »` : 'Manuels');

  const query = filtersToQuery(filters);
  const books = useQuery({ ...catalogueQuery(query), placeholderData: keepPreviousData });

  /** Every change is a new history entry (the back button undoes it) and goes back to page 1. */
  const update = (patch: Partial<CatalogueFilters>) => {
    const next = { ...filters, page: 1, ...patch };
    // A new text: the sort follows it (relevance with a text) unless one was chosen.
    if ('query' in patch && patch.query !== filters.query) {
      const before = defaultSort(filters.query);
      if (filters.sort_by === before.sort_by && filters.sort_direction === before.sort_direction) {
        Object.assign(next, defaultSort(next.query));
      }
      if (!('literal' in patch)) next.literal = false;
    }
    setParams(filtersToSearch(next));
  };
  const reset = () => setParams(new URLSearchParams());
  const hrefFor = (page: number) => {
    const search = filtersToSearch({ ...filters, page }).toString();
    return search ? `/books?${search}` : '/books';
  };

  // A new page of results: bring the list into view.
  const firstPage = useRef(filters.page);
  useEffect(() => {
    if (filters.page === firstPage.current) return;
    firstPage.current = filters.page;
    resultsRef.current?.scrollIntoView({ block: 'start' });
  }, [filters.page]);

  // The drawer has no reason to stay open once the screen is wide enough for the sidebar.
  useEffect(() => {
    if (isDesktop) setDrawerOpen(false);
  }, [isDesktop]);

  const changeView = (next: View) => {
    setView(next);
    writePreference(VIEW_KEY, next);
  };

  const count = activeFilterCount(filters);
  const data = books.data;
  // Page 1 shows the boosted listings first, in their own block; the results do not repeat them.
  const sponsored = (data && filters.page === 1 ? data.sponsored : undefined) ?? [];
  const sponsoredIds = new Set(sponsored.map((book) => book.id));
  const results = data?.data.filter((book) => !sponsoredIds.has(book.id));
  const total = data?.total ?? 0;
  const lastPage = data?.last_page ?? 1;
  const panel = <FilterPanel filters={filters} onChange={update} onReset={reset} />;

  return (
    <Container className="py-6 sm:py-10">
      <PageHeader
        title="Manuels scolaires"
        description="Cherchez un titre, un auteur ou une classe (ex. : maths 6e), puis affinez par prix ou ville."
        actions={
          <Link to="/books/add" className={buttonClasses('accent', 'md', 'max-sm:hidden')}>
            <PlusIcon size={18} /> Vendre un manuel
          </Link>
        }
      />

      <SearchBar value={filters.query} onSearch={(text) => update({ query: text })} />
      <Understood page={books.isPlaceholderData ? undefined : data} filters={filters} onChange={update} />

      <div className="mt-6 lg:grid lg:grid-cols-[18rem_minmax(0,1fr)] lg:gap-8">
        {isDesktop ? (
          <aside aria-labelledby="filtres-titre" className="self-start lg:sticky lg:top-20">
            <h2 id="filtres-titre" className="mb-4 flex items-center gap-2 text-lg font-bold text-slate-900">
              <FilterIcon size={18} /> Filtres
            </h2>
            {panel}
          </aside>
        ) : drawerUsed ? (
          <Suspense fallback={null}>
            <Dialog open={drawerOpen} onClose={() => setDrawerOpen(false)} title="Filtres" size="lg">
              {panel}
              {/* Always in reach at the bottom of the sheet, however long the panel. */}
              <div className="sticky bottom-0 -mx-5 mt-6 border-t border-slate-200 bg-white px-5 py-3 sm:-mx-6 sm:px-6">
                <Button fullWidth onClick={() => setDrawerOpen(false)}>
                  {books.isFetching
                    ? 'Recherche…'
                    : books.isError && !data
                      ? 'Fermer'
                      : `Voir ${total} résultat${total > 1 ? 's' : ''}`}
                </Button>
              </div>
            </Dialog>
          </Suspense>
        ) : null}

        <section ref={resultsRef} aria-labelledby="resultats" className="min-w-0 scroll-mt-20">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="resultats" className="mr-auto text-sm font-medium text-slate-700" aria-live="polite">
              {books.isPending
                ? 'Recherche des manuels…'
                : books.isError && !data
                  ? 'Résultats indisponibles'
                  : `${total} manuel${total > 1 ? 's' : ''} trouvé${total > 1 ? 's' : ''}`}
            </h2>
            {isDesktop ? <SortSelect filters={filters} onChange={update} /> : null}
            <fieldset className="flex rounded-lg border border-slate-300 bg-white p-0.5">
              <legend className="sr-only">Affichage</legend>
              <button
                type="button"
                onClick={() => changeView('grid')}
                aria-pressed={view === 'grid'}
                aria-label="Affichage en grille"
                className={cn(
                  'flex h-8 w-9 items-center justify-center rounded-md',
                  view === 'grid' ? 'bg-primary-700 text-white' : 'text-slate-600 hover:bg-slate-100',
                )}
              >
                <GridIcon size={16} />
              </button>
              <button
                type="button"
                onClick={() => changeView('list')}
                aria-pressed={view === 'list'}
                aria-label="Affichage en liste"
                className={cn(
                  'flex h-8 w-9 items-center justify-center rounded-md',
                  view === 'list' ? 'bg-primary-700 text-white' : 'text-slate-600 hover:bg-slate-100',
                )}
              >
                <ListIcon size={16} />
              </button>
            </fieldset>
          </div>
          {!isDesktop ? (
            <div className="mt-3 flex items-center gap-2">
              <Button
                variant="outline"
                size="sm"
                onClick={() => setDrawerOpen(true)}
                leftIcon={<FilterIcon size={16} />}
              >
                Filtres{count ? ` (${count})` : ''}
              </Button>
              <SortSelect filters={filters} onChange={update} className="flex-1" />
            </div>
          ) : null}

          <ActiveFilters filters={filters} onChange={update} onReset={reset} />
          {count ? (
            <div className="mt-3">{saveSearch(filters, books.isPlaceholderData ? undefined : data?.interpreted)}</div>
          ) : null}

          <div className="mt-4" aria-busy={books.isFetching}>
            {books.isError && !data ? (
              <Alert
                tone="error"
                title={messages.booksError}
                action={
                  <Button
                    variant="outline"
                    size="sm"
                    leftIcon={<RefreshIcon size={16} />}
                    loading={books.isFetching}
                    onClick={() => void books.refetch()}
                  >
                    Réessayer
                  </Button>
                }
              >
                Vérifiez votre connexion internet puis réessayez.
              </Alert>
            ) : data && data.data.length === 0 ? (
              <>
                {data.did_you_mean ? (
                  <p className="mb-4 text-base text-slate-800">
                    Vouliez-vous dire{' '}
                    <Link
                      to={`/books?${filtersToSearch({ ...filters, ...defaultSort(data.did_you_mean), query: data.did_you_mean, literal: false, page: 1 })}`}
                      className="font-semibold text-primary-800 underline underline-offset-2"
                    >
                      {data.did_you_mean}
                    </Link>{' '}
                    ?
                  </p>
                ) : null}
                <EmptyState
                  icon={<BookIcon size={26} />}
                  title="Aucun manuel trouvé"
                  description={
                    count
                      ? 'Aucun manuel ne correspond à ces critères. Essayez d’autres mots-clés ou retirez des filtres.'
                      : 'Aucun manuel n’est en vente pour le moment. Revenez bientôt !'
                  }
                  action={
                    <Button onClick={() => navigate('/books')} leftIcon={<BookIcon size={18} />}>
                      Afficher tous les manuels
                    </Button>
                  }
                />
              </>
            ) : (
              <div className={cn('transition-opacity', books.isPlaceholderData && 'opacity-60')}>
                {sponsored.length > 0 ? (
                  <section
                    aria-labelledby="sponsored-title"
                    className="mb-4 rounded-2xl border border-accent-200 bg-accent-50/60 p-3"
                    data-testid="sponsored-results"
                  >
                    <h2 id="sponsored-title" className="mb-2 text-sm font-semibold text-accent-900">
                      Annonces sponsorisées
                    </h2>
                    <BookGrid
                      books={sponsored}
                      layout={view}
                      eagerCount={view === 'grid' ? 2 : 1}
                      className={isDesktop && view === 'grid' ? 'lg:grid-cols-3' : undefined}
                    />
                  </section>
                ) : null}
                <BookGrid
                  books={results}
                  loading={!data}
                  count={PER_PAGE}
                  layout={view}
                  eagerCount={view === 'grid' ? 2 : 3}
                  // A phone's first screen (two columns). Wider, a partial second row grew after the
                  // paint and moved what follows (a desktop's CLS 0 → 0.05): all at once there.
                  firstPaintCount={twoColumns ? 4 : undefined}
                  className={isDesktop && view === 'grid' ? 'lg:grid-cols-3' : undefined}
                />
              </div>
            )}
          </div>

          {data && data.data.length > 0 ? (
            <>
              <Pagination
                page={Math.min(filters.page, lastPage)}
                lastPage={lastPage}
                hrefFor={hrefFor}
                showEdgeLabels
                className="mt-8"
              />
              <PromoCard />
            </>
          ) : null}
        </section>
      </div>
    </Container>
  );
}

/** Promo card to /books/add (SPEC section 2). */
function PromoCard() {
  return (
    <aside className="mt-10 flex flex-col gap-4 rounded-2xl bg-primary-800 p-5 text-white sm:flex-row sm:items-center sm:justify-between sm:p-6">
      <div>
        <p className="text-lg font-bold">Des manuels qui dorment sur une étagère ?</p>
        <p className="mt-1 text-sm text-primary-50">
          Vendez-les, échangez-les ou donnez-les à une autre famille en quelques minutes. Sans commission.
        </p>
      </div>
      <Link to="/books/add" className={buttonClasses('accent', 'md', 'shrink-0')}>
        <PlusIcon size={18} /> Publier une annonce
      </Link>
    </aside>
  );
}

import {
  Alert,
  BookIcon,
  Button,
  buttonClasses,
  Card,
  ChevronRightIcon,
  RefreshIcon,
  SearchIcon,
  Select,
  Skeleton,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { bookCount, type Category, useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useNavigate } from '@cartable/ui/router';
import { type FormEvent, useId, useState } from 'react';
import { BookGrid } from '../../entities/book/BookCard';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import { messages } from '../../shared/messages';
import { useFeaturedBooks, useRecentBooks } from './api/home';
import { BannerCarousel } from './BannerCarousel';
import { GabonCities } from './GabonCities';
import { HowItWorks, SellCta, SignUpCta, Stats, Testimonials } from './HomeSections';
import { SectionHeading, Wrapper } from './SectionLayout';

/** SPEC section 9: 8 recent books, 6 categories. */
const TOP_CATEGORIES = 6;
const SUBCATEGORIES_PER_TILE = 3;
const POPULAR_SEARCHES = ['mathématiques', 'français', 'physique'];

export default function HomePage() {
  useDocumentTitle(null);
  const { user, isAuthenticated } = useSession();
  const sellTo = isAuthenticated ? '/books/add' : '/login';
  return (
    <>
      <BannerCarousel />
      <div className="space-y-12 pb-12 sm:space-y-16 sm:pb-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          {isAuthenticated && user ? <WelcomeCard name={user.name} /> : null}
          <QuickSearch />
        </div>
        <Wrapper>
          <CategoryTiles />
        </Wrapper>
        <Wrapper>
          <PopularBooks />
        </Wrapper>
        <Wrapper belowFold>
          <HowItWorks />
        </Wrapper>
        <Wrapper belowFold>
          <RecentBooks />
        </Wrapper>
        <Stats />
        <Wrapper belowFold>
          <SellCta to={sellTo} />
        </Wrapper>
        <Wrapper belowFold>
          <Testimonials />
        </Wrapper>
        <Wrapper belowFold>
          <GabonCities />
        </Wrapper>
        {!isAuthenticated ? (
          <Wrapper belowFold>
            <SignUpCta />
          </Wrapper>
        ) : null}
      </div>
    </>
  );
}

function WelcomeCard({ name }: { name: string }) {
  return (
    <Card className="mt-6 flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <p className="text-lg font-semibold text-slate-900">Bon retour, {name} !</p>
        <p className="text-sm text-slate-600">Gérez vos annonces et vos messages depuis votre tableau de bord.</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to="/dashboard" className={buttonClasses('primary')}>
          Tableau de bord
        </Link>
        <Link to="/books/add" className={buttonClasses('outline')}>
          Ajouter un manuel
        </Link>
      </div>
    </Card>
  );
}

/**
 * A cycle and, under it, its levels (and a level's series: « Terminale D »), for the quick
 * search's « Classe »: the tree's children of a cycle are its levels; a series is a child of a
 * level named after it (a level's other children are its subjects).
 */
function classOptions(cycles: Category[]) {
  return cycles.map((cycle) => ({
    cycle,
    levels: (cycle.children ?? []).flatMap((level) => [
      { category: level, series: false },
      ...(level.children ?? [])
        .filter((child) => child.name.startsWith(`${level.name} `))
        .map((child) => ({ category: child, series: true })),
    ]),
  }));
}

/** Text, class (a cycle among the top-6 categories or one of its levels) and city, to /books with the query in the URL. */
function QuickSearch() {
  const navigate = useNavigate();
  const hierarchy = useCategoryHierarchy();
  const cities = useGabonCities();
  const [text, setText] = useState('');
  const [level, setLevel] = useState('');
  const [city, setCity] = useState('');
  const id = useId();
  const cycles = (hierarchy.data ?? []).slice(0, TOP_CATEGORIES);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const params = new URLSearchParams();
    if (text.trim()) params.set('query', text.trim());
    if (level) params.set('category_ids', level);
    if (city) params.set('city_id', city);
    const search = params.toString();
    navigate(search ? `/books?${search}` : '/books');
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="mt-6 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h1 id={`${id}-title`} className="text-xl font-bold tracking-tight text-slate-900 sm:text-2xl">
        Manuels scolaires d'occasion au Gabon
      </h1>
      <p className="mt-1 text-sm text-slate-600">
        Achetez, vendez, échangez ou donnez vos manuels, du primaire au lycée. Sans frais ni commission.
      </p>
      <ClassListEntry />
      <search>
        <form onSubmit={submit} className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end">
          <div className="sm:col-span-2 lg:col-span-1">
            <label htmlFor={`${id}-q`} className="mb-1.5 block text-sm font-medium text-slate-800">
              Quel manuel cherchez-vous ?
            </label>
            <div className="relative">
              <SearchIcon
                size={18}
                className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400"
              />
              <input
                id={`${id}-q`}
                type="search"
                enterKeyHint="search"
                value={text}
                onChange={(event) => setText(event.target.value)}
                // Escape does not erase what was typed (a search field's default in Chromium).
                onKeyDown={(event) => {
                  if (event.key === 'Escape') event.preventDefault();
                }}
                placeholder="Ex. : maths 6e, svt 3e"
                className="block h-11 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-400 focus:border-primary-600 focus:ring-2 focus:ring-primary-100 focus:outline-none sm:text-sm"
              />
            </div>
          </div>
          <Select label="Classe" value={level} onChange={(event) => setLevel(event.target.value)}>
            <option value="">{hierarchy.data ? 'Toutes les classes' : 'Chargement…'}</option>
            {classOptions(cycles).map(({ cycle, levels }) =>
              levels.length ? (
                <optgroup key={cycle.id} label={cycle.name}>
                  <option value={cycle.id}>Tout le {cycle.name.toLowerCase()}</option>
                  {levels.map(({ category, series }) => (
                    <option key={category.id} value={category.id}>
                      {series ? `\u00a0\u00a0${category.name}` : category.name}
                    </option>
                  ))}
                </optgroup>
              ) : (
                <option key={cycle.id} value={cycle.id}>
                  {cycle.name}
                </option>
              ),
            )}
          </Select>
          <CitySelect
            label="Ville"
            cities={cities.data}
            emptyLabel="Toutes les villes"
            value={city}
            onChange={(event) => setCity(event.target.value)}
          />
          <Button type="submit" size="md" className="sm:col-span-2 lg:col-span-1" leftIcon={<SearchIcon size={18} />}>
            Rechercher
          </Button>
        </form>
      </search>
      <div className="mt-4 flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-600">Recherches populaires :</span>
        {POPULAR_SEARCHES.map((term) => (
          <Link
            key={term}
            to={`/books?query=${encodeURIComponent(term)}`}
            className="inline-flex items-center rounded-full border border-primary-200 bg-primary-50 px-3 py-1 font-medium text-primary-800 hover:bg-primary-100"
          >
            {term}
          </Link>
        ))}
      </div>
    </section>
  );
}

/**
 * « Ma liste »: one tap here, one on the class, and the parent sees every book of the
 * list near them. A plain link: the page loads with its own chunk, nothing more on the home page.
 */
function ClassListEntry() {
  return (
    <Link
      to="/ma-liste"
      data-testid="class-list-entry"
      className="mt-4 flex min-h-14 items-center gap-3 rounded-xl bg-accent-100 px-4 py-3 text-slate-900 ring-1 ring-accent-300 hover:bg-accent-200 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
    >
      <span
        aria-hidden="true"
        className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-white text-accent-800"
      >
        <BookIcon size={20} />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-bold">Trouver les manuels de ma classe</span>
        <span className="block text-sm text-slate-700">
          La liste de la classe et où trouver chaque livre, près de chez vous.
        </span>
      </span>
      <ChevronRightIcon size={20} className="shrink-0 text-accent-800" />
    </Link>
  );
}

const TILE_COLOURS = [
  'bg-primary-700',
  'bg-ocean-600',
  'bg-accent-700',
  'bg-primary-900',
  'bg-ocean-800',
  'bg-slate-700',
];

/** First six categories of the hierarchy, three subcategories each. */
function CategoryTiles() {
  const hierarchy = useCategoryHierarchy();
  const tiles = (hierarchy.data ?? []).slice(0, TOP_CATEGORIES);
  if (hierarchy.data && tiles.length === 0) return null;
  return (
    <section aria-labelledby="categories-title">
      <SectionHeading
        id="categories-title"
        title="Parcourir par cycle"
        link={{ to: '/books', label: 'Tous les manuels' }}
      />
      {hierarchy.isError && !hierarchy.data ? (
        <RetryAlert onRetry={() => void hierarchy.refetch()} loading={hierarchy.isFetching} />
      ) : !hierarchy.data ? (
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
          {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
            <Skeleton key={key} className="h-32 w-full rounded-xl" />
          ))}
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
          {tiles.map((category, index) => (
            <li key={category.id}>
              <CategoryTile category={category} colour={TILE_COLOURS[index % TILE_COLOURS.length] as string} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CategoryTile({ category, colour }: { category: Category; colour: string }) {
  const children = (category.children ?? []).slice(0, SUBCATEGORIES_PER_TILE);
  const count = bookCount(category);
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <Link
        to={`/books?category_ids=${category.id}`}
        className={`${colour} group flex min-h-20 flex-col justify-end p-3 text-white sm:min-h-24 sm:p-4`}
      >
        <span className="text-base leading-tight font-bold group-hover:underline sm:text-lg">{category.name}</span>
        {typeof count === 'number' ? (
          <span className="text-xs text-white">
            {count} manuel{count > 1 ? 's' : ''}
          </span>
        ) : null}
      </Link>
      {children.length > 0 ? (
        <ul className="flex flex-1 flex-col gap-0.5 p-2 text-sm">
          {children.map((child) => (
            <li key={child.id}>
              <Link
                to={`/books?category_ids=${child.id}`}
                className="block truncate rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-50 hover:text-primary-800"
              >
                {child.name}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function RetryAlert({ onRetry, loading }: { onRetry: () => void; loading: boolean }) {
  return (
    <Alert
      tone="error"
      title={messages.homeError}
      action={
        <Button variant="outline" size="sm" onClick={onRetry} loading={loading} leftIcon={<RefreshIcon size={16} />}>
          Réessayer
        </Button>
      }
    >
      Vérifiez votre connexion internet puis réessayez.
    </Alert>
  );
}

/**
 * « À la une » (GET /books/featured): the boosted listings first, marked « Sponsorisé », then the
 * most viewed available books.
 */
function PopularBooks() {
  const featured = useFeaturedBooks();
  return (
    <section aria-labelledby="a-la-une-title" data-testid="featured-section">
      <SectionHeading id="a-la-une-title" title="À la une" link={{ to: '/subscription', label: 'Être à la une' }} />
      {featured.isError ? (
        <RetryAlert onRetry={() => void featured.refetch()} loading={featured.isFetching} />
      ) : featured.data && featured.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          Les manuels mis en avant et les plus consultés apparaîtront ici.
        </p>
      ) : (
        <BookGrid books={featured.data?.slice(0, 8)} loading={featured.isPending} count={4} />
      )}
    </section>
  );
}

function RecentBooks() {
  const recent = useRecentBooks();
  return (
    <section aria-labelledby="recents-title">
      <SectionHeading id="recents-title" title="Derniers manuels ajoutés" link={{ to: '/books', label: 'Voir tout' }} />
      {recent.isError ? (
        <RetryAlert onRetry={() => void recent.refetch()} loading={recent.isFetching} />
      ) : recent.data && recent.data.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          Aucun manuel pour le moment. Soyez le premier à publier une annonce !
        </p>
      ) : (
        <BookGrid books={recent.data?.data.slice(0, 8)} loading={recent.isPending} count={8} />
      )}
    </section>
  );
}

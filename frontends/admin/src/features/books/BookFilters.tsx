import { Button, CloseIcon, Select, useCities } from '@cartable/ui';
import { SearchField } from '../../shared/SearchField';
import {
  BOOK_SORTS,
  BOOK_STATUS_LABELS,
  BOOK_STATUSES,
  type BookQuery,
  type BookSort,
  type BookStatus,
  useCategoryOptions,
} from './api/books';

const GABON = 266;

type Update = (changes: Record<string, string | number | null>) => void;

/**
 * The list's search, filters and sort, kept in the URL (`update`); when the list is one member's
 * (from their page), says so with the way back to every member's.
 */
export function BookFilters({
  query,
  update,
  ownerName,
}: {
  query: BookQuery & Required<Pick<BookQuery, 'sort_by' | 'sort_direction'>>;
  update: Update;
  /** The member whose listings these are, once a row tells it. */
  ownerName: string | undefined;
}) {
  const cities = useCities(GABON);
  const categories = useCategoryOptions();
  const { sort_by: sortBy, sort_direction: direction } = query;

  return (
    <>
      {/* Two even rows on a laptop: six columns left « Toutes les catégories » cut. */}
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        <div className="sm:col-span-2 lg:col-span-3 xl:col-span-2">
          <SearchField
            label="Rechercher"
            placeholder="Titre, auteur ou ISBN…"
            value={query.search ?? ''}
            onSearch={(search) => update({ search })}
          />
        </div>
        <Select label="Statut" value={query.status} onChange={(e) => update({ status: e.target.value })}>
          <option value="">Tous</option>
          {BOOK_STATUSES.map((value) => (
            <option key={value} value={value}>
              {BOOK_STATUS_LABELS[value as BookStatus]}
            </option>
          ))}
        </Select>
        <Select label="Visibilité" value={query.hidden} onChange={(e) => update({ hidden: e.target.value })}>
          <option value="">Toutes</option>
          <option value="false">Visibles</option>
          <option value="true">Masquées</option>
        </Select>
        <Select label="Ville" value={String(query.city_id)} onChange={(e) => update({ city_id: e.target.value })}>
          <option value="">Toutes les villes</option>
          {(cities.data ?? []).map((city) => (
            <option key={city.id} value={city.id}>
              {city.name}
            </option>
          ))}
        </Select>
        <Select
          label="Catégorie"
          value={String(query.category_id)}
          onChange={(e) => update({ category_id: e.target.value })}
        >
          <option value="">Toutes les catégories</option>
          {(categories.data ?? []).map((category) => (
            <option key={category.id} value={category.id}>
              {'\u00a0'.repeat(category.depth * 2)}
              {category.name}
            </option>
          ))}
        </Select>
        {/* The sort's longest choice, « Date de publication (récentes) », needs two columns. */}
        <div className="sm:col-span-2">
          <Select
            label="Trier par"
            value={`${sortBy}:${direction}`}
            onChange={(e) => {
              const [by, dir] = e.target.value.split(':');
              update({
                sort_by: by === 'created_at' ? null : (by ?? null),
                sort_direction: dir === 'desc' ? null : (dir ?? null),
              });
            }}
          >
            {(Object.keys(BOOK_SORTS) as BookSort[]).flatMap((key) => [
              <option key={`${key}:desc`} value={`${key}:desc`}>
                {BOOK_SORTS[key]} {key === 'title' ? '(Z → A)' : key === 'created_at' ? '(récentes)' : '(décroissant)'}
              </option>,
              <option key={`${key}:asc`} value={`${key}:asc`}>
                {BOOK_SORTS[key]} {key === 'title' ? '(A → Z)' : key === 'created_at' ? '(anciennes)' : '(croissant)'}
              </option>,
            ])}
          </Select>
        </div>
      </div>

      {query.owner_id ? (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-700" role="status">
          Annonces d’un seul membre
          {ownerName ? ` : ${ownerName}` : ''}
          <Button
            variant="ghost"
            size="sm"
            leftIcon={<CloseIcon size={14} />}
            onClick={() => update({ owner_id: null })}
          >
            Tous les membres
          </Button>
        </p>
      ) : null}
    </>
  );
}

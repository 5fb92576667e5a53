import {
  BookIcon,
  buttonClasses,
  Container,
  EmptyState,
  LoadFailed,
  SchoolYearCard,
  Select,
  Skeleton,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { findLevel, type LevelGroup, levelGroups } from '../../entities/class-list/levels';
import { useGabonCities } from '../../shared/cities';
import { CitySelect } from '../../shared/components/CitySelect';
import { type ClassList, currentSchoolYear, levelListsQuery } from './api/class-lists';
import { Availability, ListSkeleton } from './ListAvailability';

/**
 * « Ma liste » (/ma-liste): pick the class (and the school's list, and the town),
 * then every book of the list with the listings near the town, the cheapest price, gifts and
 * exchanges, a « déjà obtenu » mark, and the total still to pay. The choice lives in the URL
 * (?level, ?list, ?city) so that the page can be shared and reopened.
 */
export default function MyListPage() {
  useDocumentTitle('Ma liste de manuels');
  const [params, setParams] = useSearchParams();
  const { user } = useSession();
  const hierarchy = useCategoryHierarchy();
  const groups = useMemo(() => levelGroups(hierarchy.data), [hierarchy.data]);
  const levelId = Number(params.get('level')) || null;
  const level = findLevel(groups, levelId);

  const cityParam = params.get('city');
  const cityId = cityParam === 'all' ? null : Number(cityParam) || user?.city_id || null;

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  return (
    <Container className="max-w-3xl py-5 sm:py-8">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Ma liste de manuels</h1>
      <p className="mt-1 text-sm text-slate-600">
        Les manuels demandés pour la classe, et où les trouver d’occasion près de chez vous.
      </p>

      {!levelId ? (
        <LevelPicker
          groups={groups}
          loading={hierarchy.isPending}
          error={hierarchy.isError && !hierarchy.data}
          onRetry={() => void hierarchy.refetch()}
        />
      ) : (
        <ListForLevel
          key={levelId}
          levelId={levelId}
          levelName={level?.name ?? (hierarchy.data ? 'Classe inconnue' : '…')}
          groups={groups}
          listId={Number(params.get('list')) || null}
          cityId={cityId}
          onLevel={(id) => update({ level: id, list: null })}
          onList={(id) => update({ list: id })}
          onCity={(id) => update({ city: id || 'all' })}
        />
      )}
      <SchoolYearCard className="mt-8">
        {(season) =>
          season === 'vendre' ? (
            <Link to="/ma-liste/vendre" className={buttonClasses('outline', 'sm')}>
              Vendre les manuels de l’an dernier
            </Link>
          ) : season === 'garder' ? (
            <Link to="/my-books" className={buttonClasses('outline', 'sm')}>
              Mes manuels
            </Link>
          ) : null
        }
      </SchoolYearCard>
    </Container>
  );
}

/** Step one: the classes as large buttons, by cycle (one tap opens the list). */
function LevelPicker({
  groups,
  loading,
  error,
  onRetry,
}: {
  groups: LevelGroup[];
  loading: boolean;
  error: boolean;
  onRetry: () => void;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-6" data-testid="level-picker">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        Quelle est la classe de votre enfant ?
      </h2>
      {error ? (
        <LoadFailed
          title="Les classes n’ont pas pu être chargées"
          // The picker is told only that the categories failed: no reason to show, nothing pending.
          query={{ error: undefined, isFetching: false, refetch: onRetry }}
          className="mt-4"
        />
      ) : loading ? (
        <div className="mt-4 space-y-5" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement des classes…
          </span>
          {[0, 1, 2].map((n) => (
            <div key={n}>
              <Skeleton className="h-5 w-24" />
              <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
                {[0, 1, 2, 3, 4, 5].map((m) => (
                  <Skeleton key={m} className="h-12 w-full rounded-lg" />
                ))}
              </div>
            </div>
          ))}
        </div>
      ) : (
        <div className="mt-4 space-y-5">
          {groups.map((group) => (
            <div key={group.cycle.id}>
              <h3 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{group.cycle.name}</h3>
              <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-4">
                {group.levels.map((level) => (
                  <li key={level.id}>
                    <Link
                      to={`/ma-liste?level=${level.id}`}
                      className="flex min-h-12 items-center justify-center rounded-lg border border-primary-200 bg-white px-2 text-center text-sm font-semibold text-primary-800 shadow-sm hover:bg-primary-50 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none"
                    >
                      {level.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

/** The official list first, then the schools' (as the API orders them); the current school year first. */
function pickDefault(lists: ClassList[]): ClassList | undefined {
  const year = currentSchoolYear();
  return (
    lists.find((l) => l.school_year === year && l.kind === 'official') ??
    lists.find((l) => l.kind === 'official') ??
    lists[0]
  );
}

const listLabel = (l: ClassList) =>
  `${l.kind === 'official' ? 'Liste officielle' : (l.school_name ?? 'Établissement')}${l.city && l.kind === 'school' ? ` (${l.city.name})` : ''} · ${l.school_year}`;

function ListForLevel({
  levelId,
  levelName,
  groups,
  listId,
  cityId,
  onLevel,
  onList,
  onCity,
}: {
  levelId: number;
  levelName: string;
  groups: LevelGroup[];
  listId: number | null;
  cityId: number | null;
  onLevel: (id: string) => void;
  onList: (id: string) => void;
  onCity: (id: string) => void;
}) {
  const id = useId();
  const lists = useQuery(levelListsQuery(levelId));
  const cities = useGabonCities();
  const chosen = lists.data?.find((l) => l.id === listId) ?? (lists.data ? pickDefault(lists.data) : undefined);

  return (
    <>
      <div className="mt-5 grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2">
        <Select label="Classe" value={String(levelId)} onChange={(e) => onLevel(e.target.value)}>
          {groups.length === 0 ? <option value={levelId}>{levelName}</option> : null}
          {groups.map((group) => (
            <optgroup key={group.cycle.id} label={group.cycle.name}>
              {group.levels.map((level) => (
                <option key={level.id} value={level.id}>
                  {level.name}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
        <CitySelect
          label="Ville"
          cities={cities.data}
          emptyLabel="Tout le Gabon"
          value={cityId ? String(cityId) : ''}
          onChange={(e) => onCity(e.target.value)}
        />
        {lists.data && lists.data.length > 1 ? (
          <div className="sm:col-span-2">
            <Select
              label="Liste"
              id={`${id}-list`}
              value={chosen ? String(chosen.id) : ''}
              onChange={(e) => onList(e.target.value)}
            >
              {lists.data.map((l) => (
                <option key={l.id} value={l.id}>
                  {listLabel(l)}
                </option>
              ))}
            </Select>
            <p className="mt-1 text-xs text-slate-600">
              L’école de votre enfant a sa propre liste ? Choisissez-la ici.
            </p>
          </div>
        ) : null}
      </div>

      {lists.isError && !lists.data ? (
        <LoadFailed title="Les listes de cette classe n’ont pas pu être chargées" query={lists} className="mt-4" />
      ) : !lists.data ? (
        <ListSkeleton />
      ) : !chosen ? (
        <EmptyState
          className="mt-6"
          icon={<BookIcon size={26} />}
          title={`Pas encore de liste pour la ${levelName}`}
          description="La liste de cette classe n’est pas encore publiée. Vous pouvez chercher les manuels un par un, ou proposer la liste de votre école."
          action={
            <div className="flex flex-wrap justify-center gap-2">
              <Link
                to={`/books?category_ids=${levelId}${cityId ? `&city_id=${cityId}` : ''}`}
                className={buttonClasses('primary')}
              >
                Voir les manuels
              </Link>
              <Link to={`/ma-liste/proposer?level=${levelId}`} className={buttonClasses('outline')}>
                Proposer une liste
              </Link>
            </div>
          }
        />
      ) : (
        <Availability key={`${chosen.id}`} list={chosen} cityId={cityId} />
      )}
      <p className="mt-8 rounded-xl bg-ocean-50 p-4 text-sm text-ocean-900">
        Votre école a sa propre liste ?{' '}
        <Link to={`/ma-liste/proposer?level=${levelId}`} className="font-semibold underline underline-offset-2">
          Proposez-la
        </Link>{' '}
        : après vérification, les autres parents la trouveront ici.
      </p>
    </>
  );
}

/** Skeletons of the real size: the summary card and three books with their listing strip. */

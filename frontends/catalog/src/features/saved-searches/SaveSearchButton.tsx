import type { SearchInterpretation } from '@cartable/contracts';
import { BellIcon, Button, buttonClasses, cn, useSession } from '@cartable/ui';
import { branchOf, entriesById, flattenTree, useCategoryHierarchy } from '@cartable/ui/categories';
import { Link, useLocation, useSearchParams } from '@cartable/ui/router';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useGabonCities } from '../../shared/cities';

/** The dialog (its form, zod and the overlays) loads on the first tap, not with /books. */
const SaveSearchDialog = lazy(() => import('./SaveSearchDialog'));

/** After the login a visitor comes back to /books with this flag: the dialog opens by itself. */
const REOPEN = 'enregistrer';

/** What /books filters by, as the button needs it (the catalogue's CatalogueFilters). */
export interface SearchToSave {
  query: string;
  literal: boolean;
  category_ids: number[];
  city_id: number | null;
}

/** « Mathématiques 6e à Libreville »: what the search understood, else the words, the categories, the town. */
export function suggestName(
  filters: SearchToSave,
  interpreted: SearchInterpretation | null | undefined,
  categoryNames: string[],
  cityName: string | undefined,
): string {
  let what = '';
  if (filters.query) {
    what =
      interpreted && !filters.literal && (interpreted.subject || interpreted.level)
        ? [interpreted.subject?.name, interpreted.level?.name, interpreted.text].filter(Boolean).join(' ')
        : filters.query;
  }
  if (!what && categoryNames.length) what = categoryNames.slice(0, 2).join(', ');
  if (!what) what = 'Manuels';
  what = what.charAt(0).toUpperCase() + what.slice(1);
  return (cityName ? `${what} à ${cityName}` : what).slice(0, 80);
}

/**
 * « Enregistrer cette recherche » on /books: a member opens the save dialog; a visitor goes to the
 * login and comes back here, where the dialog opens.
 */
export function SaveSearchButton({
  filters,
  interpreted,
  className,
}: {
  filters: SearchToSave;
  interpreted: SearchInterpretation | null | undefined;
  className?: string;
}) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  if (open && !used) setUsed(true);
  const cities = useGabonCities();
  const hierarchy = useCategoryHierarchy();

  // Back from the login with the flag: open the dialog once, and take the flag out of the URL.
  const reopen = isAuthenticated && params.get(REOPEN) === '1';
  useEffect(() => {
    if (!reopen) return;
    setOpen(true);
    const next = new URLSearchParams(params);
    next.delete(REOPEN);
    setParams(next, { replace: true });
  }, [reopen, params, setParams]);

  const suggested = useMemo(() => {
    const entries = flattenTree(hierarchy.data ?? []);
    const names = entriesById(entries);
    const branch = filters.category_ids.length > 1 ? branchOf(entries, filters.category_ids) : undefined;
    const categoryNames = branch
      ? [branch.category.name]
      : filters.category_ids.map((id) => names.get(id)?.category.name).filter((n): n is string => Boolean(n));
    const city = cities.data?.find((c) => c.id === filters.city_id)?.name;
    return suggestName(filters, interpreted, categoryNames, city);
  }, [filters, interpreted, hierarchy.data, cities.data]);

  const label = (
    <>
      <BellIcon size={16} /> Enregistrer cette recherche
    </>
  );
  const classes = cn(buttonClasses('outline', 'sm'), 'min-h-11', className);
  if (!isAuthenticated) {
    const back = new URLSearchParams(location.search);
    back.set(REOPEN, '1');
    return (
      <Link
        to={`/login?return_url=${encodeURIComponent(`${location.pathname}?${back}`)}`}
        className={classes}
        data-testid="save-search"
      >
        {label}
      </Link>
    );
  }
  const search = new URLSearchParams(params);
  search.delete(REOPEN);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className={cn('min-h-11', className)}
        onClick={() => setOpen(true)}
        data-testid="save-search"
      >
        {label}
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <SaveSearchDialog
            open={open}
            onClose={() => setOpen(false)}
            suggestedName={suggested}
            filters={Object.fromEntries(search)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

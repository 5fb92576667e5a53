import {
  Badge,
  BellIcon,
  Button,
  buttonClasses,
  Container,
  EmptyState,
  errorMessage,
  formatDate,
  Input,
  LazyConfirmDialog,
  LoadFailed,
  notify,
  PageHeader,
  PauseIcon,
  PencilIcon,
  PlayIcon,
  SearchIcon,
  Select,
  Skeleton,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  FREQUENCIES,
  type SavedSearch,
  type SavedSearchFrequency,
  savedSearchesQuery,
  useDeleteSavedSearch,
  useUpdateSavedSearch,
} from './api/saved-searches';

const failed = (error: unknown) => void notify.error(errorMessage(error, 'L’opération n’a pas abouti. Réessayez.'));

/**
 * « Mes recherches » (/mes-recherches): the member's saved searches with their alerts; change the
 * frequency, pause or switch alerts back on (after an e-mail's unsubscribe link), reopen the
 * results, rename, delete.
 */
export default function SavedSearchesPage() {
  useDocumentTitle('Mes recherches enregistrées');
  const saved = useQuery(savedSearchesQuery());
  const remove = useDeleteSavedSearch();
  const [deleting, setDeleting] = useState<SavedSearch | null>(null);
  const list = saved.data?.data;

  return (
    <Container className="max-w-3xl py-6 sm:py-8">
      <PageHeader
        title="Mes recherches"
        description="Vos recherches enregistrées : vous êtes prévenu par e-mail et dans vos notifications quand une nouvelle annonce correspond."
      />
      {saved.isError && !saved.data ? (
        <LoadFailed title="Vos recherches n’ont pas pu être chargées" query={saved} />
      ) : !list ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de vos recherches…
          </span>
          {[0, 1].map((n) => (
            <Skeleton key={n} className="h-48 w-full rounded-xl" />
          ))}
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          icon={<BellIcon size={26} />}
          title="Aucune recherche enregistrée"
          description={`Cherchez un manuel (par exemple «\u00a0maths 6e\u00a0» à Libreville), puis touchez «\u00a0Enregistrer cette recherche\u00a0» : nous vous prévenons dès qu’une annonce correspond, immédiatement, une fois par jour ou une fois par semaine.`}
          action={
            <Link to="/books" className={buttonClasses('primary')}>
              <SearchIcon size={18} /> Chercher un manuel
            </Link>
          }
        />
      ) : (
        <>
          <ul className="space-y-3" data-testid="saved-searches">
            {list.map((s) => (
              <li key={s.id}>
                <SavedSearchCard search={s} onDelete={() => setDeleting(s)} />
              </li>
            ))}
          </ul>
          {saved.data?.limits ? (
            <p className="mt-4 text-xs text-slate-600">
              {list.length} recherche{list.length > 1 ? 's' : ''} sur {saved.data.limits.max} possibles · au plus{' '}
              {saved.data.limits.mails_per_day} e-mails d’alerte par jour.
            </p>
          ) : null}
        </>
      )}
      {deleting ? (
        <LazyConfirmDialog
          open
          title="Supprimer cette recherche ?"
          description={`« ${deleting.name} » sera supprimée et vous ne recevrez plus ses alertes.`}
          confirmLabel="Supprimer"
          loading={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: (answer) => {
                setDeleting(null);
                void notify.success(answer?.message ?? 'Recherche enregistrée supprimée');
              },
              onError: failed,
            })
          }
        />
      ) : null}
    </Container>
  );
}

function SavedSearchCard({ search, onDelete }: { search: SavedSearch; onDelete: () => void }) {
  const update = useUpdateSavedSearch();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(search.name);
  const [nameError, setNameError] = useState<string | undefined>();
  const titleId = `saved-search-${search.id}`;

  const rename = (event: FormEvent) => {
    event.preventDefault();
    const next = name.trim();
    if (!next) return setNameError('Donnez un nom à cette recherche');
    if (next === search.name) return setRenaming(false);
    update.mutate(
      { id: search.id, name: next },
      {
        onSuccess: () => {
          setRenaming(false);
          void notify.success('Recherche renommée');
        },
        onError: (error) => setNameError(errorMessage(error, 'Le nom n’a pas pu être changé. Réessayez.')),
      },
    );
  };

  const setActive = (active: boolean) =>
    update.mutate(
      { id: search.id, active },
      {
        onSuccess: () =>
          void notify.success(active ? 'Alertes réactivées pour cette recherche' : 'Alertes mises en pause'),
        onError: failed,
      },
    );

  return (
    <article
      aria-labelledby={titleId}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      data-testid="saved-search"
    >
      {renaming ? (
        <form onSubmit={rename} className="space-y-2">
          <Input
            label="Nouveau nom"
            value={name}
            maxLength={80}
            autoFocus
            error={nameError}
            onChange={(event) => {
              setName(event.target.value);
              setNameError(undefined);
            }}
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" className="min-h-11" loading={update.isPending}>
              Enregistrer
            </Button>
            <Button
              variant="ghost"
              size="sm"
              className="min-h-11"
              onClick={() => {
                setRenaming(false);
                setName(search.name);
                setNameError(undefined);
              }}
            >
              Annuler
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex items-start gap-2">
          <h2 id={titleId} className="mr-auto text-lg font-semibold break-words text-slate-900">
            {search.name}
          </h2>
          <Badge tone={search.active ? 'primary' : 'neutral'} className="shrink-0">
            {search.active ? 'Alertes actives' : 'Alertes en pause'}
          </Badge>
        </div>
      )}
      <p className="mt-1 text-sm text-slate-700">{search.summary}</p>
      <p className="mt-1 text-xs text-slate-600">
        {search.match_count === 0
          ? 'Aucune annonce signalée pour le moment'
          : `${search.match_count} annonce${search.match_count > 1 ? 's' : ''} signalée${search.match_count > 1 ? 's' : ''}`}
        {search.last_match_at ? ` · dernière le ${formatDate(search.last_match_at)}` : ''}
      </p>

      {search.active ? (
        <Select
          className="mt-3"
          label="Fréquence des alertes"
          hint={FREQUENCIES.find((f) => f.value === search.frequency)?.hint}
          value={search.frequency}
          disabled={update.isPending}
          onChange={(event) =>
            update.mutate(
              { id: search.id, frequency: event.target.value as SavedSearchFrequency },
              { onSuccess: () => void notify.success('Fréquence des alertes modifiée'), onError: failed },
            )
          }
        >
          {FREQUENCIES.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </Select>
      ) : (
        <div className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900" role="status">
          Vous ne recevez plus d’alertes pour cette recherche.
          <Button
            size="sm"
            className="mt-2 min-h-11 w-full sm:w-auto"
            leftIcon={<PlayIcon size={15} />}
            loading={update.isPending}
            onClick={() => setActive(true)}
          >
            Réactiver<span className="sr-only"> les alertes de {search.name}</span>
          </Button>
        </div>
      )}

      <div className="mt-3 flex flex-wrap gap-2">
        <Link to={`/books?${search.query_string}`} className={buttonClasses('primary', 'sm', 'min-h-11')}>
          <SearchIcon size={15} /> Voir les résultats
        </Link>
        {search.active ? (
          <Button
            variant="outline"
            size="sm"
            className="min-h-11"
            leftIcon={<PauseIcon size={15} />}
            disabled={update.isPending}
            onClick={() => setActive(false)}
          >
            Suspendre<span className="sr-only"> les alertes de {search.name}</span>
          </Button>
        ) : null}
        {!renaming ? (
          <Button
            variant="ghost"
            size="sm"
            className="min-h-11"
            leftIcon={<PencilIcon size={15} />}
            onClick={() => {
              setName(search.name);
              setRenaming(true);
            }}
          >
            Renommer<span className="sr-only"> {search.name}</span>
          </Button>
        ) : null}
        <Button variant="danger" size="sm" className="min-h-11" leftIcon={<TrashIcon size={15} />} onClick={onDelete}>
          Supprimer<span className="sr-only"> {search.name}</span>
        </Button>
      </div>
    </article>
  );
}

import {
  BellIcon,
  Button,
  buttonClasses,
  Container,
  EmptyState,
  errorMessage,
  LazyConfirmDialog,
  LoadFailed,
  MapPinIcon,
  notify,
  PageHeader,
  Skeleton,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type SavedClassList, savedListsQuery, useForgetList } from './api/class-lists';

/** « Mes listes » (/mes-listes): the saved class lists, the books still missing, open or forget each. */
export default function SavedListsPage() {
  useDocumentTitle('Mes listes de manuels');
  const saved = useQuery(savedListsQuery());
  const forget = useForgetList();
  const [forgetting, setForgetting] = useState<SavedClassList | null>(null);

  return (
    <Container className="max-w-3xl py-6 sm:py-8">
      <PageHeader
        title="Mes listes de manuels"
        description="Vous êtes prévenu quand un manuel qui vous manque est proposé près de chez vous."
        actions={
          <Link to="/ma-liste" className={buttonClasses('outline', 'sm')}>
            Ajouter une liste
          </Link>
        }
      />
      {saved.isError && !saved.data ? (
        <LoadFailed title="Vos listes n’ont pas pu être chargées" query={saved} />
      ) : !saved.data ? (
        <div className="space-y-3" aria-busy="true">
          <span className="sr-only" role="status">
            Chargement de vos listes…
          </span>
          {[0, 1].map((n) => (
            <Skeleton key={n} className="h-36 w-full rounded-xl" />
          ))}
        </div>
      ) : saved.data.length === 0 ? (
        <EmptyState
          icon={<BellIcon size={26} />}
          title="Aucune liste enregistrée"
          description="Ouvrez la liste de la classe de votre enfant et enregistrez-la : nous vous préviendrons quand un manuel manquant sera proposé près de chez vous."
          action={
            <Link to="/ma-liste" className={buttonClasses('primary')}>
              Trouver les manuels de ma classe
            </Link>
          }
        />
      ) : (
        <ul className="space-y-3" data-testid="saved-lists">
          {saved.data.map((s) => {
            const query = new URLSearchParams({ level: String(s.list.level.id), list: String(s.list.id) });
            if (s.city) query.set('city', String(s.city.id));
            return (
              <li key={s.list.id}>
                <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                  <p className="text-xs font-medium text-slate-500">
                    {s.list.kind === 'official' ? 'Liste officielle' : s.list.school_name} · {s.list.school_year}
                  </p>
                  <h2 className="text-lg font-semibold text-slate-900">{s.list.level.name}</h2>
                  <p className="mt-1 flex flex-wrap items-center gap-x-3 text-sm text-slate-700">
                    <span>
                      {s.missing_count === 0
                        ? 'Tous les manuels obtenus'
                        : `${s.missing_count} manuel${s.missing_count > 1 ? 's' : ''} à trouver sur ${s.list.items_count}`}
                    </span>
                    {s.city ? (
                      <span className="inline-flex items-center gap-1">
                        <MapPinIcon size={14} /> {s.city.name}
                      </span>
                    ) : null}
                  </p>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Link to={`/ma-liste?${query}`} className={buttonClasses('primary', 'sm')}>
                      Ouvrir la liste
                    </Link>
                    <Button
                      variant="danger"
                      size="sm"
                      leftIcon={<TrashIcon size={15} />}
                      onClick={() => setForgetting(s)}
                    >
                      Retirer<span className="sr-only"> la liste de {s.list.level.name}</span>
                    </Button>
                  </div>
                </article>
              </li>
            );
          })}
        </ul>
      )}
      {forgetting ? (
        <LazyConfirmDialog
          open
          title="Retirer cette liste ?"
          description={`Vous ne serez plus prévenu pour les manuels de ${forgetting.list.level.name}.`}
          confirmLabel="Retirer"
          loading={forget.isPending}
          onCancel={() => setForgetting(null)}
          onConfirm={() =>
            forget.mutate(forgetting.list.id, {
              onSuccess: (res) => {
                setForgetting(null);
                void notify.success(res?.message ?? 'Liste retirée de votre compte');
              },
              onError: (error) => void notify.error(errorMessage(error, 'L’opération n’a pas abouti. Réessayez.')),
            })
          }
        />
      ) : null}
    </Container>
  );
}

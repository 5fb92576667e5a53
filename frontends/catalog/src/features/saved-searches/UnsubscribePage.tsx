import {
  Alert,
  ApiError,
  BellIcon,
  Button,
  buttonClasses,
  CheckCircleIcon,
  Container,
  errorMessage,
  LoadFailed,
  PageHeader,
  Skeleton,
  useDocumentTitle,
} from '@cartable/ui';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { SAVED_SEARCHES_PATH, unsubscribeInfoQuery, useUnsubscribe } from './api/saved-searches';

const INVALID = 'Ce lien de désabonnement n’est pas valide.';

/**
 * /mes-recherches/desabonnement?token=… (public: the link of every alert e-mail): what the link
 * stops, « Ne plus recevoir ces alertes », then a confirmation with the way back to « Mes
 * recherches » to switch them on again. A wrong or truncated link says so in plain words.
 */
export default function UnsubscribePage() {
  useDocumentTitle('Arrêter des alertes');
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const info = useQuery(unsubscribeInfoQuery(token));
  const stop = useUnsubscribe(token);
  const search = info.data?.saved_search;
  const invalid = token === '' || (info.error instanceof ApiError && info.error.status === 404);

  return (
    <Container className="max-w-xl py-6 sm:py-10">
      <PageHeader title="Alertes de recherche" />
      {invalid ? (
        <Alert tone="error" title={INVALID}>
          Le lien est peut-être incomplet : ouvrez-le à nouveau depuis l’e-mail, ou gérez vos alertes depuis{' '}
          <Link to={SAVED_SEARCHES_PATH} className="font-semibold underline underline-offset-2">
            Mes recherches
          </Link>{' '}
          après vous être connecté.
        </Alert>
      ) : info.isError && !search ? (
        <LoadFailed title="Cette page n’a pas pu être chargée" query={info} />
      ) : !search ? (
        <div aria-busy="true">
          <span className="sr-only" role="status">
            Chargement…
          </span>
          <Skeleton className="h-40 w-full rounded-xl" />
        </div>
      ) : (
        <section
          className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
          aria-live="polite"
          data-testid="unsubscribe"
        >
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Recherche enregistrée</p>
          <h2 className="mt-1 text-lg font-semibold break-words text-slate-900">{search.name}</h2>
          <p className="mt-1 text-sm text-slate-700">{search.summary}</p>
          <p className="mt-1 text-sm text-slate-600">Alertes : {search.frequency_label.toLowerCase()}</p>

          {stop.isSuccess || !search.active ? (
            <div className="mt-4">
              <p className="flex items-start gap-2 font-semibold text-primary-900" role="status">
                <CheckCircleIcon size={20} className="mt-0.5 shrink-0" />
                {stop.data?.message ?? 'Les alertes de cette recherche étaient déjà arrêtées.'}
              </p>
              <p className="mt-2 text-sm text-slate-700">
                Vous avez changé d’avis ? Vous pouvez les réactiver à tout moment depuis vos recherches enregistrées.
              </p>
              <Link to={SAVED_SEARCHES_PATH} className={buttonClasses('outline', 'md', 'mt-3 w-full sm:w-auto')}>
                <BellIcon size={16} /> Mes recherches
              </Link>
            </div>
          ) : (
            <div className="mt-4">
              <p className="text-sm text-slate-700">
                Vous ne recevrez plus d’e-mail ni de notification pour les nouvelles annonces de cette recherche. Vos
                autres recherches ne changent pas.
              </p>
              {stop.isError ? (
                <Alert tone="error" className="mt-3" title="Les alertes n’ont pas pu être arrêtées">
                  {errorMessage(stop.error, 'Vérifiez votre connexion internet puis réessayez.')}
                </Alert>
              ) : null}
              <Button className="mt-4" fullWidth loading={stop.isPending} onClick={() => stop.mutate()}>
                Ne plus recevoir ces alertes
              </Button>
            </div>
          )}
        </section>
      )}
    </Container>
  );
}

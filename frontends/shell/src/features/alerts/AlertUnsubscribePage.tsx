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
import { unsubscribeInfoQuery, useUnsubscribe } from './api/unsubscribe';

const INVALID = 'Ce lien de désabonnement n’est pas valide.';
const WHAT_STOPS = {
  favourites: 'Vous ne recevrez plus d’e-mail quand un manuel de vos favoris est réservé, vendu ou baisse de prix.',
  class_list:
    'Vous ne recevrez plus d’e-mail quand un manuel qui manque à votre liste est mis en vente près de chez vous.',
  school_year: 'Vous ne recevrez plus d’e-mail pour vendre en juin et acheter en août les manuels de votre enfant.',
} as const;

/**
 * /alertes/desabonnement?token=…&kind=… (public: the link of the favourites', « Ma liste »'s and
 * the school year's alert mails): what the link stops, « Ne plus recevoir ces e-mails », then the
 * confirmation with the way to the profile's switches. It asks before it acts: mail scanners open
 * every link.
 */
export default function AlertUnsubscribePage() {
  useDocumentTitle('Arrêter des alertes');
  const [params] = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const kind = (params.get('kind') ?? '').trim();
  const info = useQuery(unsubscribeInfoQuery(token, kind));
  const stop = useUnsubscribe(token, kind);
  const known = info.data;
  const invalid =
    token === '' || kind === '' || (info.error instanceof ApiError && [404, 422].includes(info.error.status));

  return (
    <Container className="max-w-xl py-6 sm:py-10">
      <PageHeader title="Alertes par e-mail" />
      {invalid ? (
        <Alert tone="error" title={INVALID}>
          Le lien est peut-être incomplet : ouvrez-le à nouveau depuis l’e-mail, ou choisissez vos alertes dans{' '}
          <Link to="/profile" className="font-semibold underline underline-offset-2">
            votre profil
          </Link>{' '}
          après vous être connecté.
        </Alert>
      ) : info.isError && !known ? (
        <LoadFailed title="Cette page n’a pas pu être chargée" query={info} />
      ) : !known ? (
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
          data-testid="alert-unsubscribe"
        >
          <h2 className="text-lg font-semibold text-slate-900">{known.kind_label}</h2>
          {stop.isSuccess || !known.active ? (
            <div className="mt-3">
              <p className="flex items-start gap-2 font-semibold text-primary-900" role="status">
                <CheckCircleIcon size={20} className="mt-0.5 shrink-0" />
                {stop.data?.message ?? 'Ces alertes ne vous étaient déjà plus envoyées par e-mail.'}
              </p>
              <p className="mt-2 text-sm text-slate-700">
                Les notifications sous la cloche continuent. Vous pouvez tout changer à tout moment dans votre profil.
              </p>
              <Link to="/profile" className={buttonClasses('outline', 'md', 'mt-3 w-full sm:w-auto')}>
                <BellIcon size={16} /> Mes notifications
              </Link>
            </div>
          ) : (
            <div className="mt-3">
              <p className="text-sm text-slate-700">{WHAT_STOPS[known.kind]} Vos autres alertes ne changent pas.</p>
              {stop.isError ? (
                <Alert tone="error" className="mt-3" title="Les alertes n’ont pas pu être arrêtées">
                  {errorMessage(stop.error, 'Vérifiez votre connexion internet puis réessayez.')}
                </Alert>
              ) : null}
              <Button className="mt-4" fullWidth loading={stop.isPending} onClick={() => stop.mutate()}>
                Ne plus recevoir ces e-mails
              </Button>
            </div>
          )}
        </section>
      )}
    </Container>
  );
}

import {
  Card,
  CardBody,
  CardHeader,
  Checkbox,
  errorMessage,
  LoadFailed,
  notify,
  Skeleton,
  useSession,
} from '@cartable/ui';
import { useNotificationPreferences, useSavePreferences } from '../api/notification-preferences';

/**
 * Each kind of alert (a favourite reserved, sold or cheaper; a book of « Ma liste » listed nearby),
 * by e-mail and in the notice centre, each on or off. Stored by notifications, the service that
 * reads them when it decides to write (PUT /notifications/preferences); each box saves at once.
 */
export function NotificationsCard() {
  const { user } = useSession();
  const userId = user?.id ?? '';
  const query = useNotificationPreferences(userId);
  const save = useSavePreferences(userId, {
    onSuccess: (answer) => notify.success(answer.message ?? 'Préférences enregistrées.'),
    onError: (error) => notify.error(errorMessage(error, 'Impossible d’enregistrer vos préférences.')),
  });
  const preferences = query.data?.preferences;

  return (
    <Card>
      <CardHeader>
        <h2 className="text-lg font-semibold text-slate-900">Notifications</h2>
        <p className="text-sm text-slate-600">Choisissez comment Cartable vous prévient, pour chaque sorte d’alerte.</p>
      </CardHeader>
      <CardBody className="space-y-4">
        {query.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : query.isError || !preferences ? (
          <LoadFailed title="Impossible de charger vos préférences." query={query} />
        ) : (
          <>
            <h3 className="text-sm font-semibold text-slate-900">Mes favoris</h3>
            <Checkbox
              label="Alertes de mes favoris par e-mail"
              hint="Un e-mail à chaque réservation, vente ou baisse de prix d’un de vos favoris."
              checked={preferences.favourite_emails}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ favourite_emails: event.currentTarget.checked })}
            />
            <Checkbox
              label="Alertes de mes favoris dans Cartable"
              hint="Une notification sous la cloche, en haut de la page."
              checked={preferences.favourite_notices}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ favourite_notices: event.currentTarget.checked })}
            />
            <h3 className="pt-2 text-sm font-semibold text-slate-900">Ma liste</h3>
            <Checkbox
              label="Alertes de « Ma liste » par e-mail"
              hint="Un e-mail (5 par jour au plus) quand un manuel qui manque à votre liste est mis en vente près de chez vous."
              checked={preferences.class_list_emails}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ class_list_emails: event.currentTarget.checked })}
            />
            <Checkbox
              label="Alertes de « Ma liste » dans Cartable"
              hint="Une notification sous la cloche, en haut de la page."
              checked={preferences.class_list_notices}
              disabled={save.isPending}
              onChange={(event) => save.mutate({ class_list_notices: event.currentTarget.checked })}
            />
          </>
        )}
      </CardBody>
    </Card>
  );
}

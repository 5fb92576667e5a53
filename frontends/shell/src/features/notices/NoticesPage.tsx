import type { Notice } from '@cartable/contracts';
import {
  BellIcon,
  Button,
  Container,
  cn,
  EmptyState,
  errorMessage,
  formatDateTime,
  LoadFailed,
  notify,
  PageHeader,
  Pagination,
  Skeleton,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link, useNavigate, useSearchParams } from '@cartable/ui/router';
import { useMarkAllNoticesRead, useMarkNoticeRead, useNoticesPage } from './api/notices';

/**
 * /notifications: the member's notice centre (a favourite reserved, sold or cheaper; a deal's
 * steps), newest first. Opening one marks it read; « Tout marquer comme lu » empties the bell.
 */
export default function NoticesPage() {
  const { user } = useSession();
  const userId = user?.id ?? '';
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const navigate = useNavigate();
  useDocumentTitle('Notifications');
  const query = useNoticesPage(userId, page);
  const markRead = useMarkNoticeRead();
  const markAll = useMarkAllNoticesRead({
    onSuccess: (answer) => notify.success(answer.message),
    onError: (error) => notify.error(errorMessage(error, 'Impossible de marquer les notifications comme lues.')),
  });

  const open = (notice: Notice) => {
    if (!notice.read_at) markRead.mutate(notice.id);
    if (notice.link) navigate(notice.link);
  };

  const unread = query.data?.data.some((n) => !n.read_at) ?? false;
  return (
    <Container className="max-w-3xl py-8 sm:py-10">
      <PageHeader
        title="Notifications"
        description="Vos favoris, vos transactions et les avis reçus, « Ma liste », vos recherches, vos échanges et vos mises en avant."
        actions={
          unread ? (
            <Button variant="outline" size="sm" onClick={() => markAll.mutate()} loading={markAll.isPending}>
              Tout marquer comme lu
            </Button>
          ) : null
        }
      />
      {query.isPending ? (
        <ul className="space-y-3" aria-busy="true" aria-label="Chargement des notifications">
          {[0, 1, 2].map((i) => (
            <li key={i}>
              <Skeleton className="h-20 w-full rounded-xl" />
            </li>
          ))}
        </ul>
      ) : query.isError ? (
        <LoadFailed title="Impossible de charger vos notifications." query={query} />
      ) : query.data.data.length === 0 ? (
        <EmptyState
          icon={<BellIcon size={26} />}
          title="Aucune notification"
          description="Vous serez prévenu ici quand un favori est réservé, vendu ou moins cher, à chaque étape de vos transactions, quand vous recevez un avis, quand un manuel de « Ma liste » ou d’une recherche enregistrée est mis en vente, quand un échange vous est proposé et quand une mise en avant commence ou finit."
          action={
            <Link to="/books" className="font-semibold text-primary-700 hover:underline">
              Parcourir les manuels
            </Link>
          }
        />
      ) : (
        <>
          <ul className="space-y-3" data-testid="notices">
            {query.data.data.map((notice) => (
              <li key={notice.id}>
                <button
                  type="button"
                  onClick={() => open(notice)}
                  className={cn(
                    'w-full rounded-xl border p-4 text-left transition-colors hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-primary-600 focus-visible:outline-none',
                    notice.read_at ? 'border-slate-200 bg-white' : 'border-primary-200 bg-primary-50/60',
                  )}
                >
                  <span className="flex items-start gap-3">
                    <span
                      aria-hidden="true"
                      className={cn(
                        'mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full',
                        notice.read_at ? 'bg-transparent' : 'bg-primary-600',
                      )}
                    />
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold break-words text-slate-900">
                        {notice.title}
                        {notice.read_at ? null : <span className="sr-only"> (non lue)</span>}
                      </span>
                      <span className="mt-1 block text-sm break-words text-slate-700">{notice.body}</span>
                      <span className="mt-1 block text-xs text-slate-500">{formatDateTime(notice.created_at)}</span>
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {query.data.meta.last_page > 1 ? (
            <Pagination
              className="mt-6"
              page={page}
              lastPage={query.data.meta.last_page}
              onPage={(next) => setParams({ page: String(next) })}
            />
          ) : null}
        </>
      )}
    </Container>
  );
}

import type { AdminSubscriptionListQuery, Subscription, SubscriptionStatus } from '@cartable/contracts';
import { planKindLabels, planKinds, subscriptionStatuses, subscriptionStatusLabels } from '@cartable/contracts/labels';
import {
  Button,
  buttonClasses,
  formatDate,
  formatPrice,
  PageHeader,
  Pagination,
  ReceiptIcon,
  Select,
  useDocumentTitle,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { SubscriptionStatusBadge } from '../../entities/subscription/SubscriptionStatusBadge';
import { type Column, DataTable } from '../../shared/DataTable';
import { SearchField } from '../../shared/SearchField';
import { useListParams } from '../../shared/useListParams';
import { useAdminSubscriptions, usePlans } from './api/subscriptions';
import { SubscriptionDrawer } from './SubscriptionDrawer';

const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

/** « Abonnements » (user_subscriptions.manage): members' subscriptions with filters, detail, cancel, extend. */
export default function UserSubscriptionsPage() {
  useDocumentTitle('Abonnements · Administration');
  const { params, update, page } = useListParams();
  const status = pick<SubscriptionStatus>(params.get('status'), subscriptionStatuses);
  const kind = pick(params.get('kind'), planKinds);
  const planId = Number(params.get('plan_id')) || undefined;
  const q = params.get('q') ?? '';
  const query: AdminSubscriptionListQuery = { status, kind, plan_id: planId, q: q || undefined, page };
  const list = useAdminSubscriptions(query);
  const plans = usePlans();
  const open = params.get('id');

  const member = (s: Subscription) => (
    <button
      type="button"
      className="min-h-11 text-left font-semibold text-primary-700 hover:underline"
      onClick={() => update({ id: s.id, page })}
    >
      {s.user_name ?? 'Membre'}
    </button>
  );
  const period = (s: Subscription) =>
    s.starts_at && s.ends_at ? `${formatDate(s.starts_at)} → ${formatDate(s.ends_at)}` : '—';
  const columns: Column<Subscription>[] = [
    { key: 'member', header: 'Membre', cell: member },
    {
      key: 'plan',
      header: 'Plan',
      cell: (s) => (
        <>
          <p>{s.plan.name}</p>
          <p className="text-xs text-slate-500">
            {planKindLabels[s.plan.kind]} · {formatPrice(s.plan.price)}
          </p>
        </>
      ),
    },
    { key: 'status', header: 'État', cell: (s) => <SubscriptionStatusBadge status={s.status} /> },
    { key: 'period', header: 'Période', cell: period },
    {
      key: 'books',
      header: 'Annonces',
      cell: (s) =>
        s.books
          .filter((b) => !b.ended_at)
          .map((b) => b.book_title)
          .join(', ') || '—',
    },
  ];

  const filtered = Boolean(status || kind || planId || q);
  return (
    <>
      <PageHeader
        title="Abonnements"
        description="Les abonnements et mises en avant des membres."
        actions={
          <Link to="/admin/book-subscriptions" className={buttonClasses('outline', 'sm')}>
            Annonces à la une
          </Link>
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <SearchField label="Membre" placeholder="Nom du membre…" value={q} onSearch={(next) => update({ q: next })} />
        <Select label="État" value={status ?? ''} onChange={(event) => update({ status: event.target.value })}>
          <option value="">Tous les états</option>
          {subscriptionStatuses.map((s) => (
            <option key={s} value={s}>
              {subscriptionStatusLabels[s]}
            </option>
          ))}
        </Select>
        <Select label="Type" value={kind ?? ''} onChange={(event) => update({ kind: event.target.value })}>
          <option value="">Tous les types</option>
          {planKinds.map((k) => (
            <option key={k} value={k}>
              {planKindLabels[k]}
            </option>
          ))}
        </Select>
        <Select label="Plan" value={planId ?? ''} onChange={(event) => update({ plan_id: event.target.value })}>
          <option value="">Tous les plans</option>
          {(plans.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      </div>
      <DataTable
        caption="Abonnements des membres"
        columns={columns}
        rows={list.data?.data}
        rowKey={(s) => s.id}
        query={list}
        testId="subscription"
        empty={{
          icon: <ReceiptIcon size={26} />,
          title: 'Aucun abonnement',
          description: filtered ? 'Aucun abonnement ne correspond à ces critères.' : undefined,
          action: filtered ? (
            <Button
              variant="outline"
              onClick={() => {
                update({ status: null, kind: null, plan_id: null, q: null });
              }}
            >
              Effacer les filtres
            </Button>
          ) : undefined,
        }}
        card={(s) => (
          <>
            <div className="flex items-start justify-between gap-2">
              {member(s)}
              <SubscriptionStatusBadge status={s.status} />
            </div>
            <p className="text-sm text-slate-800">
              {s.plan.name} · {formatPrice(s.plan.price)}
            </p>
            <p className="text-xs text-slate-500">{period(s)}</p>
          </>
        )}
      />
      <Pagination
        edges
        className="mt-5"
        page={list.data?.meta.current_page ?? page}
        lastPage={list.data?.meta.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? target : null })}
      />
      <SubscriptionDrawer id={open} onClose={() => update({ id: null, page })} />
    </>
  );
}

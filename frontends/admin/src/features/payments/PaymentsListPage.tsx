import type { AdminPayment, AdminPaymentListQuery, PaymentStatus } from '@cartable/contracts';
import {
  mobileMoneyOperators,
  operatorLabels,
  paymentProviderLabels,
  paymentProviders,
  paymentStatuses,
  paymentStatusLabels,
} from '@cartable/contracts/labels';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  errorMessage,
  formatDateTime,
  formatPrice,
  Input,
  notify,
  PageHeader,
  Pagination,
  Select,
  useDocumentTitle,
  WalletIcon,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { downloadServerCsv } from '../../shared/export-csv';
import { fcfa } from '../../shared/messages';
import { SearchField } from '../../shared/SearchField';
import { useListParams } from '../../shared/useListParams';
import { type MonthlyRevenue, usePayments } from './api/payments';
import { PaymentStatusBadge } from './PaymentStatusBadge';

const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;

const monthLabel = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });
export const formatMonth = (month: string) => monthLabel.format(new Date(`${month}-01T00:00:00Z`));

function Totals({ totals }: { totals: MonthlyRevenue[] }) {
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Totaux par mois</CardTitle>
      </CardHeader>
      <CardBody>
        {totals.length === 0 ? (
          <p className="text-sm text-slate-600">Aucun paiement sur cette période.</p>
        ) : (
          <>
            {/* On a phone, one block a month: five columns of amounts would scroll sideways. */}
            <ul className="divide-y divide-slate-100 sm:hidden" aria-label="Totaux par mois des paiements filtrés">
              {totals.map((t) => (
                <li key={t.month} className="py-3">
                  <p className="font-semibold capitalize text-slate-900">{formatMonth(t.month)}</p>
                  <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
                    <dt className="text-slate-600">Paiements</dt>
                    <dd className="text-right tabular-nums">{t.count.toLocaleString('fr-FR')}</dd>
                    <dt className="text-slate-600">Encaissé</dt>
                    <dd className="text-right tabular-nums">{fcfa(t.paid)}</dd>
                    <dt className="text-slate-600">Remboursé</dt>
                    <dd className="text-right tabular-nums">{fcfa(t.refunded)}</dd>
                    <dt className="font-semibold text-slate-900">Net</dt>
                    <dd className="text-right font-semibold tabular-nums">{fcfa(t.paid - t.refunded)}</dd>
                  </dl>
                </li>
              ))}
            </ul>
            <table className="hidden w-full text-left text-sm sm:table" data-testid="payment-totals">
              <caption className="sr-only">Totaux par mois des paiements filtrés</caption>
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Mois
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">
                    Paiements
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">
                    Encaissé
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-semibold">
                    Remboursé
                  </th>
                  <th scope="col" className="py-2 text-right font-semibold">
                    Net
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {totals.map((t) => (
                  <tr key={t.month}>
                    <th scope="row" className="py-2 pr-3 font-normal capitalize">
                      {formatMonth(t.month)}
                    </th>
                    <td className="py-2 pr-3 text-right tabular-nums">{t.count.toLocaleString('fr-FR')}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{fcfa(t.paid)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{fcfa(t.refunded)}</td>
                    <td className="py-2 text-right font-semibold tabular-nums">{fcfa(t.paid - t.refunded)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </CardBody>
    </Card>
  );
}

/**
 * « Paiements d'abonnements » (the queue: submitted manual payments first, base /admin/subscription-payments)
 * and « Gestion des paiements » (every payment with filters and the totals per month, base /admin/payments).
 */
export function PaymentsListPage({ mode }: { mode: 'queue' | 'all' }) {
  const base = mode === 'queue' ? '/admin/subscription-payments' : '/admin/payments';
  const title = mode === 'queue' ? "Paiements d'abonnements" : 'Gestion des paiements';
  useDocumentTitle(`${title} · Administration`);
  const { params, update, page } = useListParams();
  // The queue opens on the payments to validate; « Tous » is status=all.
  const rawStatus = params.get('status');
  const status: PaymentStatus | undefined =
    mode === 'queue' && rawStatus === null ? 'submitted' : pick(rawStatus, paymentStatuses);
  const provider = pick(params.get('provider'), paymentProviders);
  const operator = pick(params.get('operator'), mobileMoneyOperators);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const q = params.get('q') ?? '';
  const query: AdminPaymentListQuery = {
    status,
    provider,
    operator,
    from: from || undefined,
    to: to || undefined,
    q: q || undefined,
    page,
  };
  const list = usePayments(query);
  const [exporting, setExporting] = useState(false);

  /** The paid money per day and operator over the filtered dates (today by default), as catalog writes it. */
  async function exportDay() {
    setExporting(true);
    try {
      const period = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
      await downloadServerCsv(
        '/admin/payments/daily-totals.csv',
        period,
        `cartable-paiements-${from || 'aujourdhui'}${to ? `-${to}` : ''}.csv`,
      );
      void notify.success('Totaux exportés.');
    } catch (error) {
      void notify.error(errorMessage(error, 'Les totaux n’ont pas pu être exportés.'));
    } finally {
      setExporting(false);
    }
  }

  const reference = (p: AdminPayment) => (
    <Link
      to={`${base}/${p.id}`}
      className="inline-flex min-h-11 items-center font-mono font-semibold text-primary-700 hover:underline sm:min-h-0"
    >
      {p.reference}
    </Link>
  );
  const columns: Column<AdminPayment>[] = [
    { key: 'ref', header: 'Référence', cell: reference },
    {
      key: 'member',
      header: 'Membre',
      cell: (p) => (
        <>
          <p>{p.user_name ?? '—'}</p>
          <p className="text-xs text-slate-500">{p.plan_name}</p>
        </>
      ),
    },
    { key: 'amount', header: 'Montant', cell: (p) => formatPrice(p.amount), className: 'whitespace-nowrap' },
    {
      key: 'how',
      header: 'Moyen',
      cell: (p) => (
        <>
          <p>{operatorLabels[p.operator]}</p>
          <p className="text-xs text-slate-500">{paymentProviderLabels[p.provider] ?? p.provider}</p>
        </>
      ),
    },
    {
      key: 'txn',
      header: 'Réf. opérateur',
      cell: (p) => <span className="font-mono">{p.provider_reference ?? '—'}</span>,
    },
    { key: 'status', header: 'État', cell: (p) => <PaymentStatusBadge status={p.status} /> },
    { key: 'date', header: 'Date', cell: (p) => formatDateTime(p.created_at) },
  ];
  const filtered = Boolean(provider || operator || from || to || q || (mode === 'all' && status));

  return (
    <>
      <PageHeader
        title={title}
        description={
          mode === 'queue'
            ? 'Les paiements Airtel Money et Moov Money déclarés par les membres, à vérifier puis valider ou refuser.'
            : 'Tous les paiements d’abonnements, leurs remboursements et les totaux par mois ; ceux à vérifier en premier.'
        }
        actions={
          mode === 'queue' ? undefined : (
            <Button variant="outline" size="sm" loading={exporting} onClick={() => void exportDay()}>
              Totaux par opérateur (CSV)
            </Button>
          )
        }
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        <SearchField
          label="Rechercher"
          placeholder="Référence ou membre…"
          value={q}
          onSearch={(next) => update({ q: next })}
        />
        <Select
          label="État"
          value={status ?? (mode === 'queue' ? 'all' : '')}
          onChange={(event) => update({ status: event.target.value || (mode === 'queue' ? 'all' : null) })}
        >
          <option value={mode === 'queue' ? 'all' : ''}>Tous les états</option>
          {paymentStatuses.map((s) => (
            <option key={s} value={s}>
              {paymentStatusLabels[s]}
            </option>
          ))}
        </Select>
        <Select label="Moyen" value={provider ?? ''} onChange={(event) => update({ provider: event.target.value })}>
          <option value="">Tous les moyens</option>
          {paymentProviders.map((p) => (
            <option key={p} value={p}>
              {paymentProviderLabels[p]}
            </option>
          ))}
        </Select>
        <Select label="Opérateur" value={operator ?? ''} onChange={(event) => update({ operator: event.target.value })}>
          <option value="">Tous les opérateurs</option>
          {mobileMoneyOperators.map((o) => (
            <option key={o} value={o}>
              {operatorLabels[o]}
            </option>
          ))}
        </Select>
        <Input label="Du" type="date" value={from} onChange={(event) => update({ from: event.target.value })} />
        <Input label="Au" type="date" value={to} onChange={(event) => update({ to: event.target.value })} />
      </div>
      <DataTable
        caption={title}
        columns={columns}
        rows={list.data?.data}
        rowKey={(p) => p.id}
        query={list}
        testId="payment"
        empty={{
          icon: <WalletIcon size={26} />,
          title: mode === 'queue' && status === 'submitted' ? 'Aucun paiement à valider' : 'Aucun paiement',
          description: filtered ? 'Aucun paiement ne correspond à ces critères.' : undefined,
          action: filtered ? (
            <Button
              variant="outline"
              onClick={() => {
                update({ provider: null, operator: null, from: null, to: null, q: null, status: null });
              }}
            >
              Effacer les filtres
            </Button>
          ) : undefined,
        }}
        card={(p) => (
          <>
            <div className="flex items-start justify-between gap-2">
              {reference(p)}
              <PaymentStatusBadge status={p.status} />
            </div>
            {/* The way to pay too: on a phone an eBilling payment and a MyPVit one must not read alike. */}
            <p className="text-sm text-slate-800">
              {formatPrice(p.amount)} · {operatorLabels[p.operator]} ·{' '}
              {(paymentProviderLabels[p.provider] ?? p.provider).replace(/\s*\((?:Airtel|Moov)[^)]*\)$/, '')}
            </p>
            <p className="text-xs text-slate-500">
              {p.user_name ?? '—'} · {p.plan_name} · {formatDateTime(p.created_at)}
            </p>
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
      {mode === 'all' && list.data ? <Totals totals={list.data.totals} /> : null}
    </>
  );
}

export const SubscriptionPaymentsPage = () => <PaymentsListPage mode="queue" />;
export const AllPaymentsPage = () => <PaymentsListPage mode="all" />;

import { hasPermission, useSession } from '@cartable/ui';
import { fcfa } from '../../../shared/messages';
import { useSubscriptionStats } from '../api/stats';
import { ChartCard } from './Chart';
import { StatTile } from './StatTile';

/** GET /admin/stats/subscriptions (reports.view): active subscriptions, boosted listings, revenue per month. */
export function SubscriptionFigures() {
  const { user } = useSession();
  const can = (permission: string) => hasPermission(permission, user);
  const stats = useSubscriptionStats();
  const s = stats.data;
  const error = stats.isError && !s;
  const revenue = s?.revenue ?? [];
  const last = revenue.at(-1);
  // Months drawn as the first day of each month (the chart's time axis counts days).
  const series = [
    {
      label: 'Encaissé (FCFA)',
      color: '#15803d',
      kind: 'bars' as const,
      data: revenue.map((m) => ({ day: `${m.month}-01`, count: m.paid - m.refunded })),
    },
  ];
  return (
    <section aria-labelledby="abonnements-chiffres" className="mt-8 space-y-4">
      <h2 id="abonnements-chiffres" className="text-lg font-semibold text-slate-900">
        Abonnements et paiements
      </h2>
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4" aria-label="Abonnements">
        <li>
          <StatTile
            label="Abonnements vendeur actifs"
            testId="stat-subscriptions-member"
            value={s?.active.member}
            error={error}
            to={can('user_subscriptions.manage') ? '/admin/user-subscriptions?status=active&kind=member' : undefined}
          />
        </li>
        <li>
          <StatTile
            label="Mises en avant actives"
            testId="stat-subscriptions-boost"
            value={s?.active.boost}
            error={error}
            to={can('user_subscriptions.manage') ? '/admin/user-subscriptions?status=active&kind=boost' : undefined}
            detail={s ? <span className="text-xs text-slate-600">{s.boosted_books} annonce(s) à la une</span> : null}
          />
        </li>
        <li>
          <StatTile
            label="Paiements à valider"
            testId="stat-payments-to-validate"
            value={s?.payments_to_validate}
            error={error}
            to={can('payments.manage') ? '/admin/subscription-payments' : undefined}
          />
        </li>
        <li>
          <StatTile
            label="Encaissé ce mois-ci (FCFA)"
            testId="stat-revenue-month"
            value={s ? (last ? last.paid - last.refunded : 0) : undefined}
            error={error}
            to={can('payments.manage') ? '/admin/payments' : undefined}
            detail={
              last ? (
                <span className="text-xs text-slate-600">
                  {last.count} paiement(s) · {fcfa(last.refunded)} remboursé(s)
                </span>
              ) : null
            }
          />
        </li>
      </ul>
      {error ? null : (
        <ChartCard
          title="Revenus par mois (net des remboursements)"
          series={series}
          loading={!s}
          testId="chart-revenue"
        />
      )}
    </section>
  );
}

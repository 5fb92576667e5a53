import type { StatsPeriodQuery } from '@cartable/contracts';
import { hasPermission, useSession } from '@cartable/ui';
import { useCatalogStats, useMemberStats, useMessagingStats, useModerationStats } from '../api/stats';
import { ChartCard } from './Chart';
import { RankedList } from './RankedList';
import { Shortages } from './Shortages';
import { StatTile, TrendBadge } from './StatTile';

const percent = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 0 });
const whole = new Intl.NumberFormat('fr-FR');
/** « 1 vendue », « 3 vendues »: a French plural (0 and 1 take the singular). */
const counted = (count: number, word: string) => `${whole.format(count)} ${word}${count > 1 ? 's' : ''}`;

/**
 * The figures of a period, each service's read on its own (one away leaves the others shown):
 * members, listings, conversations, moderation; charts per day; top cities and levels. Tiles
 * link to the screen where the operator acts, when the viewer may open it.
 */
export function Overview({ period, against }: { period: StatsPeriodQuery; against: string }) {
  const { user } = useSession();
  const can = (permission: string) => hasPermission(permission, user);
  const members = useMemberStats(period);
  const catalog = useCatalogStats(period);
  const messaging = useMessagingStats(period);
  const moderation = useModerationStats(period);
  const m = members.data;
  const c = catalog.data;
  const talk = messaging.data;
  const mod = moderation.data;
  const booksLink = (query = '') => (can('books.update.any') ? `/admin/books${query}` : undefined);

  return (
    <div className="space-y-6">
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label="Chiffres clés">
        <li>
          <StatTile
            label="Membres"
            testId="stat-members"
            value={m?.total}
            error={members.isError && !m}
            to={can('users.view.any') ? '/admin/users' : undefined}
            detail={
              m ? (
                <span className="flex flex-col gap-0.5 text-xs text-slate-600">
                  <span>
                    {whole.format(m.this_week.current)} nouveau{m.this_week.current > 1 ? 'x' : ''} cette semaine ·{' '}
                    <TrendBadge trend={m.this_week} against="vs semaine précédente" />
                  </span>
                  <span>{m.total ? percent.format(m.verified / m.total) : '—'} ont vérifié leur adresse</span>
                </span>
              ) : null
            }
          />
        </li>
        <li>
          <StatTile
            label="Annonces"
            testId="stat-listings"
            value={c?.total}
            error={catalog.isError && !c}
            to={booksLink()}
            detail={
              c ? (
                <span className="text-xs text-slate-600">
                  {counted(c.by_status.disponible, 'disponible')} · {counted(c.by_status.réservé, 'réservée')} ·{' '}
                  {counted(c.by_status.vendu, 'vendue')}
                </span>
              ) : null
            }
          />
        </li>
        <li>
          <StatTile
            label="Nouvelles annonces sur la période"
            testId="stat-new-listings"
            value={c?.listings.current}
            error={catalog.isError && !c}
            to={booksLink('?sort=created_at&direction=desc')}
            detail={c ? <TrendBadge trend={c.listings} against={against} /> : null}
          />
        </li>
        <li>
          <StatTile
            label="Messages échangés sur la période"
            testId="stat-messages"
            value={talk?.messages.current}
            error={messaging.isError && !talk}
            detail={
              talk ? (
                <span className="flex flex-col gap-0.5 text-xs text-slate-600">
                  <span>
                    {whole.format(talk.conversations.current)} nouvelle{talk.conversations.current > 1 ? 's' : ''}{' '}
                    conversation{talk.conversations.current > 1 ? 's' : ''} ·{' '}
                    <TrendBadge trend={talk.conversations} against={against} />
                  </span>
                </span>
              ) : null
            }
          />
        </li>
        <li>
          <StatTile
            label="Commentaires en attente"
            testId="stat-pending-comments"
            value={mod?.pending_comments}
            error={moderation.isError && !mod}
            to={user?.is_admin ? '/admin/comments' : undefined}
            detail={mod ? <span className="text-xs text-slate-600">à approuver ou rejeter</span> : null}
          />
        </li>
        <li>
          <StatTile
            label="Signalements à traiter"
            testId="stat-open-reports"
            value={mod?.open_reports}
            error={moderation.isError && !mod}
            to={user?.is_admin ? '/admin/signalements' : undefined}
            detail={
              mod ? <span className="text-xs text-slate-600">annonces, membres, commentaires, messages</span> : null
            }
          />
        </li>
        <li>
          <StatTile
            label="Nouveaux messages de contact"
            testId="stat-new-contacts"
            value={mod?.new_contacts}
            error={moderation.isError && !mod}
            to={user?.is_admin ? '/admin/contacts?status=new' : undefined}
            detail={mod ? <span className="text-xs text-slate-600">pas encore lus</span> : null}
          />
        </li>
      </ul>

      <div className="grid gap-4 xl:grid-cols-2">
        <ChartCard
          title="Nouvelles annonces par jour"
          testId="chart-listings"
          loading={!c}
          series={c ? [{ label: 'Annonces', color: '#15803d', data: c.new_per_day, kind: 'bars' }] : []}
        />
        <ChartCard
          title="Conversations et messages par jour"
          testId="chart-messages"
          loading={!talk}
          series={
            talk
              ? [
                  { label: 'Messages', color: '#0369a1', data: talk.messages_per_day },
                  { label: 'Conversations', color: '#d97706', data: talk.conversations_per_day },
                ]
              : []
          }
        />
        <ChartCard
          title="Inscriptions par jour"
          testId="chart-signups"
          loading={!m}
          series={m ? [{ label: 'Inscriptions', color: '#7c3aed', data: m.signups_per_day, kind: 'bars' }] : []}
        />
        <ChartCard
          title="Commentaires et messages de contact par jour"
          testId="chart-moderation"
          loading={!mod}
          series={
            mod
              ? [
                  { label: 'Commentaires', color: '#be123c', data: mod.comments_per_day },
                  { label: 'Contacts', color: '#475569', data: mod.contacts_per_day },
                ]
              : []
          }
        />
      </div>

      <div className="grid gap-4 lg:grid-cols-2">
        <RankedList
          title="Villes avec le plus d’annonces"
          testId="top-cities"
          items={catalog.isError && !c ? [] : c?.top_cities}
          empty={catalog.isError ? 'Chiffres indisponibles pour le moment.' : 'Aucune annonce en cours.'}
          to={(city) => booksLink(`?city_id=${city.id}`)}
        />
        <RankedList
          title="Niveaux avec le plus d’annonces"
          testId="top-levels"
          items={catalog.isError && !c ? [] : c?.top_levels}
          empty={catalog.isError ? 'Chiffres indisponibles pour le moment.' : 'Aucune annonce classée par niveau.'}
          to={(level) => booksLink(`?category_id=${level.id}`)}
        />
      </div>
      <Shortages items={catalog.isError && !c ? [] : c?.shortages} error={catalog.isError} />
    </div>
  );
}

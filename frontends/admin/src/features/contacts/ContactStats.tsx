import { cn, Skeleton } from '@cartable/ui';
import { CONTACT_STATUSES, type ContactStatus, useContactStats } from './api/contacts';

const STAT_LABELS: Record<ContactStatus, string> = {
  new: 'Nouveaux',
  read: 'Lus',
  answered: 'Répondus',
  archived: 'Archivés',
};

/** The count of messages in each status; a tap filters the list on it (« Total »: every status). */
export function ContactStats({
  active,
  onPick,
}: {
  active: ContactStatus | '';
  onPick: (status: ContactStatus | '') => void;
}) {
  const stats = useContactStats();
  const cards: Array<[ContactStatus | '', string, number | undefined]> = [
    ['', 'Total', stats.data?.total],
    ...CONTACT_STATUSES.map(
      (status) => [status, STAT_LABELS[status], stats.data?.[status]] as [ContactStatus, string, number | undefined],
    ),
  ];
  if (stats.isError) return null;
  return (
    <ul className="mb-5 grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5" aria-label="Statistiques des messages">
      {cards.map(([status, label, value]) => (
        <li key={label}>
          <button
            type="button"
            aria-pressed={active === status}
            onClick={() => onPick(status)}
            className={cn(
              'w-full rounded-xl border bg-white p-3 text-left shadow-sm transition-colors hover:border-primary-300',
              active === status ? 'border-primary-600 ring-2 ring-primary-100' : 'border-slate-200',
            )}
          >
            <span className="block text-xs font-medium text-slate-500">{label}</span>
            {value === undefined ? (
              <Skeleton className="mt-1 h-7 w-10" />
            ) : (
              <span className="block text-2xl font-bold text-slate-900" data-testid={`stat-${status || 'total'}`}>
                {value.toLocaleString('fr-FR')}
              </span>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}

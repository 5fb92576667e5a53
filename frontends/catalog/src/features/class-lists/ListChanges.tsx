import type { ClassListChange } from '@cartable/contracts';
import { formatDate } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ClassListAvailability } from './api/class-lists';

function ChangeLine({ change }: { change: ClassListChange }) {
  if (change.kind === 'replaced')
    return (
      <li>
        <strong>Remplacé</strong> : <span className="line-through">{change.previous?.title}</span> par «{' '}
        {change.item.title} »
      </li>
    );
  return (
    <li>
      <strong>{change.kind === 'withdrawn' ? 'Retiré' : 'Ajouté'}</strong> : « {change.item.title} »
      {change.kind === 'withdrawn' ? ' (plus demandé)' : ''}
    </li>
  );
}

/**
 * What changed in the list (the IPN withdraws and replaces titles, sometimes after the rentrée):
 * its latest version, and the books the family had for withdrawn titles, no longer needed but
 * still theirs to sell or exchange.
 */
export function ListChanges({ data }: { data: Pick<ClassListAvailability, 'list' | 'version' | 'no_longer_needed'> }) {
  // An answer cached before lists had versions carries neither field.
  const version = data.version ?? null;
  const gone = data.no_longer_needed ?? [];
  if (!version && gone.length === 0) return null;
  return (
    <section
      aria-labelledby={`changes-${data.list.id}`}
      className="mt-4 rounded-xl border border-ocean-200 bg-ocean-50 p-4 text-sm text-slate-800"
      data-testid="list-changes"
    >
      <h2 id={`changes-${data.list.id}`} className="font-semibold text-slate-900">
        {version ? `Liste mise à jour le ${formatDate(version.created_at)}` : 'Liste mise à jour'}
      </h2>
      {version ? (
        <ul className="mt-1 space-y-0.5">
          {version.changes.map((c) => (
            <ChangeLine key={`${c.kind}-${c.item.id}`} change={c} />
          ))}
        </ul>
      ) : null}
      {gone.length > 0 ? (
        <div className="mt-2" data-testid="no-longer-needed">
          <p>
            <strong>Plus nécessaire{gone.length > 1 ? 's' : ''}</strong> :{' '}
            {gone.map((g) => `« ${g.title} »`).join(', ')}. Vous l’aviez déjà : il n’est plus demandé pour cette classe.
          </p>
          <Link
            to={`/ma-liste/vendre?list=${data.list.id}`}
            className="mt-1 inline-flex min-h-11 items-center font-semibold text-primary-700 underline-offset-2 hover:underline"
          >
            Le vendre ou l’échanger
          </Link>
        </div>
      ) : null}
    </section>
  );
}

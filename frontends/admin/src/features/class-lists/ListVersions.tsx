import { type ClassListChange, classListChangeLabels } from '@cartable/contracts';
import { Badge, type BadgeTone, formatDateTime, LoadFailed, Skeleton } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';
import { adminClassListVersionsQuery } from './api/class-lists';

const tones: Record<ClassListChange['kind'], BadgeTone> = { added: 'success', withdrawn: 'danger', replaced: 'accent' };

function ChangeLine({ change }: { change: ClassListChange }) {
  return (
    <li className="flex flex-wrap items-baseline gap-2 text-sm">
      <Badge tone={tones[change.kind]}>{classListChangeLabels[change.kind]}</Badge>
      {change.kind === 'replaced' && change.previous ? (
        <span>
          <span className="text-slate-500 line-through">{change.previous.title}</span>
          <span aria-hidden="true"> → </span>
          <span className="sr-only">remplacé par </span>
          <span className="font-medium text-slate-900">{change.item.title}</span>
        </span>
      ) : (
        <span className={change.kind === 'withdrawn' ? 'text-slate-600' : 'font-medium text-slate-900'}>
          {change.item.title}
        </span>
      )}
    </li>
  );
}

/**
 * The list's history: every change of its books (by an operator or an import), the newest first;
 * version 1 is the list as first written.
 */
export function ListVersions({ listId }: { listId: number }) {
  const versions = useQuery(adminClassListVersionsQuery(listId));
  return (
    <section className="mt-8" aria-labelledby="class-list-versions" data-testid="class-list-versions">
      <h2 id="class-list-versions" className="mb-3 text-lg font-semibold text-slate-900">
        Historique des versions
      </h2>
      {versions.isError && !versions.data ? (
        <LoadFailed title="L’historique n’a pas pu être chargé" query={versions} />
      ) : !versions.data ? (
        <Skeleton className="h-24 w-full rounded-xl" />
      ) : versions.data.length === 0 ? (
        <p className="text-sm text-slate-600">Version 1 : la liste n’a pas changé depuis qu’elle a été écrite.</p>
      ) : (
        <ol className="space-y-3">
          {versions.data.map((v) => (
            <li
              key={v.number}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-testid="class-list-version"
            >
              <p className="text-sm font-semibold text-slate-900">
                Version {v.number}
                <span className="font-normal text-slate-600">
                  {' '}
                  · {formatDateTime(v.created_at)} · {v.source === 'import' ? 'import CSV' : 'administrateur'}
                </span>
              </p>
              <ul className="mt-2 space-y-1">
                {v.changes.map((c) => (
                  <ChangeLine key={`${c.kind}-${c.item.id}`} change={c} />
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

import { schoolYearOf } from '@cartable/contracts';
import { BookIcon, Card, CardBody, formatDateTime, formatNumber, Select } from '@cartable/ui';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { fcfa } from '../../shared/messages';
import { adminClassListCoverageQuery, type ClassListCoverage } from './api/class-lists';
import { schoolYearChoices } from './levels';

type Row = ClassListCoverage['rows'][number];
type Wanted = ClassListCoverage['most_wanted'];

const families = (n: number) => `${formatNumber(n)} famille${n > 1 ? 's' : ''}`;
const share = (r: Row) => `${formatNumber(r.coverable)} (${formatNumber(Math.round(r.coverable_share * 100))} %)`;
const saving = (r: Row) => (r.median_saving === null ? '—' : fcfa(r.median_saving));
const townOf = (r: Row) => r.city?.name ?? 'Ville non choisie';

function WantedTitles({ titles }: { titles: Wanted }) {
  if (!titles.length) return <span className="text-slate-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {titles.map((t) => (
        <li key={t.title} className="break-words">
          {t.title} <span className="whitespace-nowrap text-slate-500">· {families(t.families)}</span>
        </li>
      ))}
    </ul>
  );
}

const columns: Column<Row>[] = [
  { key: 'level', header: 'Niveau', cell: (r) => <span className="font-semibold">{r.level.name}</span> },
  { key: 'town', header: 'Ville', cell: townOf },
  { key: 'families', header: 'Familles', cell: (r) => formatNumber(r.families), className: 'text-right' },
  { key: 'coverable', header: 'Complètes', cell: share, className: 'whitespace-nowrap text-right' },
  { key: 'saving', header: 'Économie médiane', cell: saving, className: 'whitespace-nowrap text-right' },
  {
    key: 'wanted',
    header: 'Titres manquants les plus demandés',
    cell: (r) => <WantedTitles titles={r.most_wanted} />,
  },
];

/**
 * « Couverture des listes »: for a school year, per level and town, how many families' saved lists
 * the available listings cover fully, the median saving of their cheapest basket, and the books
 * nobody sells near them (what to ask sellers for).
 */
export function ListCoverage() {
  const [year, setYear] = useState(schoolYearOf);
  const coverage = useQuery(adminClassListCoverageQuery(year));
  const data = coverage.data?.school_year === year ? coverage.data : undefined;

  return (
    <section aria-labelledby="coverage-title" data-testid="class-list-coverage">
      <h2 id="coverage-title" className="sr-only">
        Couverture des listes
      </h2>
      <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Select label="Année scolaire" value={year} onChange={(e) => setYear(e.target.value)}>
          {schoolYearChoices().map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </Select>
      </div>
      <p className="mb-4 text-sm text-slate-600">
        Une liste est complète quand chaque manuel qui manque à la famille est proposé dans sa ville ou sa province.
        L’économie médiane est celle du panier le moins cher face au prix médian de chaque manuel sur le site.
      </p>
      {data && data.most_wanted.length > 0 ? (
        <Card className="mb-4" data-testid="coverage-most-wanted">
          <CardBody>
            <h3 className="mb-2 text-sm font-semibold text-slate-900">
              Titres manquants les plus demandés, toutes classes
            </h3>
            <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
              {data.most_wanted.map((t) => (
                <li key={t.title} className="break-words">
                  {t.title} <span className="whitespace-nowrap text-slate-500">· {families(t.families)}</span>
                </li>
              ))}
            </ol>
          </CardBody>
        </Card>
      ) : null}
      <DataTable
        caption={`Couverture des listes ${year}`}
        testId="coverage"
        columns={columns}
        rows={data?.rows}
        rowKey={(r) => `${r.level.id}:${r.city?.id ?? ''}`}
        query={coverage}
        errorText="La couverture des listes n’a pas pu être calculée."
        empty={{
          icon: <BookIcon size={26} />,
          title: 'Aucune famille n’a encore enregistré de liste pour cette année.',
        }}
        card={(r) => (
          <div className="space-y-2 text-sm">
            <p className="font-semibold text-slate-900">
              {r.level.name} · {townOf(r)}
            </p>
            <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-slate-700">
              <dt className="text-slate-500">Familles</dt>
              <dd>{formatNumber(r.families)}</dd>
              <dt className="text-slate-500">Complètes</dt>
              <dd>{share(r)}</dd>
              <dt className="text-slate-500">Économie médiane</dt>
              <dd>{saving(r)}</dd>
            </dl>
            <div>
              <p className="text-slate-500">Titres manquants les plus demandés</p>
              <WantedTitles titles={r.most_wanted} />
            </div>
          </div>
        )}
      />
      {data ? (
        <p className="mt-3 text-xs text-slate-600">
          {data.truncated ? `Calculé sur les ${formatNumber(data.lists)} listes enregistrées le plus récemment. ` : ''}
          Chiffres du {formatDateTime(data.computed_at)}, recalculés au plus chaque minute.
        </p>
      ) : null}
    </section>
  );
}

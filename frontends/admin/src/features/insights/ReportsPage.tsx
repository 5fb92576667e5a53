import type { StatsPeriodQuery } from '@cartable/contracts';
import {
  Alert,
  Button,
  Card,
  CardBody,
  CardHeader,
  CardTitle,
  DownloadIcon,
  errorMessage,
  Input,
  notify,
  PageHeader,
  Skeleton,
  useDocumentTitle,
} from '@cartable/ui';
import { useState } from 'react';
import { downloadCsv, downloadServerCsv } from '../../shared/export-csv';
import { useListParams } from '../../shared/useListParams';
import { useCatalogStats, useMemberStats, useMessagingStats, useModerationStats } from './api/stats';
import { Overview } from './components/Overview';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Libreville' }).format(new Date());
const whole = new Intl.NumberFormat('fr-FR');
const dateTime = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeStyle: 'short' });
const PRESETS = [
  { days: 7, label: '7 jours' },
  { days: 30, label: '30 jours' },
  { days: 90, label: '90 jours' },
  { days: 365, label: '12 mois' },
];
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function usePeriod() {
  const { params, update } = useListParams();
  const to = DAY_PATTERN.test(params.get('to') ?? '') ? params.get('to')! : today();
  const from = DAY_PATTERN.test(params.get('from') ?? '') ? params.get('from')! : isoDay(Date.parse(to) - 29 * DAY_MS);
  return { period: { from, to } satisfies StatsPeriodQuery, update };
}

/**
 * Rapports (reports.view): the dashboard's figures over a chosen period, exported as CSV, and
 * what is listed per level and subject beside what visitors searched for and did not find.
 */
export default function ReportsPage() {
  useDocumentTitle('Rapports · Administration');
  const { period, update } = usePeriod();
  const [draft, setDraft] = useState(period);
  const [exporting, setExporting] = useState(false);
  const members = useMemberStats(period);
  const catalog = useCatalogStats(period);
  const messaging = useMessagingStats(period);
  const moderation = useModerationStats(period);
  const invalid = draft.from > draft.to;

  async function exportDaily() {
    const m = members.data;
    const c = catalog.data;
    const t = messaging.data;
    const d = moderation.data;
    if (!m || !c || !t || !d) return;
    setExporting(true);
    try {
      await downloadCsv(
        `cartable-rapport-${period.from}-${period.to}.csv`,
        [
          'Jour',
          'Inscriptions',
          'Nouvelles annonces',
          'Conversations',
          'Messages',
          'Commentaires',
          'Messages de contact',
        ],
        m.signups_per_day.map((point, i) => [
          point.day,
          point.count,
          c.new_per_day[i]?.count ?? 0,
          t.conversations_per_day[i]?.count ?? 0,
          t.messages_per_day[i]?.count ?? 0,
          d.comments_per_day[i]?.count ?? 0,
          d.contacts_per_day[i]?.count ?? 0,
        ]),
      );
      void notify.success('Rapport exporté avec succès');
    } catch (error) {
      void notify.error(errorMessage(error, 'Erreur lors de l’export du rapport'));
    } finally {
      setExporting(false);
    }
  }

  async function exportSupply() {
    setExporting(true);
    try {
      // Written by catalog: the searches in it are anyone's text, made safe for a spreadsheet there.
      await downloadServerCsv(
        '/admin/stats/catalog/supply-demand.csv',
        { ...period },
        `cartable-offre-demande-${period.from}-${period.to}.csv`,
      );
      void notify.success('Rapport exporté avec succès');
    } catch (error) {
      void notify.error(errorMessage(error, 'Erreur lors de l’export du rapport'));
    } finally {
      setExporting(false);
    }
  }

  // The previous period's figures stay on screen while the new ones load: never export those.
  const queries = [members, catalog, messaging, moderation];
  const ready = queries.every((query) => query.data && !query.isPlaceholderData);

  return (
    <>
      <PageHeader
        title="Rapports"
        description={`Du ${new Date(`${period.from}T00:00:00Z`).toLocaleDateString('fr-FR', { timeZone: 'UTC' })} au ${new Date(`${period.to}T00:00:00Z`).toLocaleDateString('fr-FR', { timeZone: 'UTC' })}, comparés à la période précédente de même durée.`}
        actions={
          <Button
            variant="outline"
            size="sm"
            leftIcon={<DownloadIcon size={16} />}
            onClick={() => void exportDaily()}
            disabled={!ready}
            loading={exporting}
          >
            Exporter en CSV
          </Button>
        }
      />

      <Card className="mb-6">
        <CardBody>
          <form
            className="flex flex-wrap items-end gap-3"
            aria-label="Période du rapport"
            onSubmit={(event) => {
              event.preventDefault();
              if (!invalid) update({ from: draft.from, to: draft.to });
            }}
          >
            <div className="w-40">
              <Input
                label="Du"
                type="date"
                value={draft.from}
                max={draft.to}
                onChange={(event) => setDraft((d) => ({ ...d, from: event.target.value }))}
                required
              />
            </div>
            <div className="w-40">
              <Input
                label="Au"
                type="date"
                value={draft.to}
                min={draft.from}
                onChange={(event) => setDraft((d) => ({ ...d, to: event.target.value }))}
                error={invalid ? 'La date de fin doit suivre la date de début.' : undefined}
                required
              />
            </div>
            <Button type="submit" disabled={invalid}>
              Afficher
            </Button>
            <fieldset className="flex flex-wrap gap-2">
              <legend className="sr-only">Périodes prédéfinies</legend>
              {PRESETS.map((preset) => (
                <Button
                  key={preset.days}
                  type="button"
                  variant="ghost"
                  size="sm"
                  onClick={() => {
                    const to = today();
                    const next = { from: isoDay(Date.parse(to) - (preset.days - 1) * DAY_MS), to };
                    setDraft(next);
                    update(next);
                  }}
                >
                  {preset.label}
                </Button>
              ))}
            </fieldset>
          </form>
        </CardBody>
      </Card>

      {[members, catalog, messaging, moderation].some((q) => q.isError) ? (
        <Alert tone="warning" title="Certains chiffres sont indisponibles" className="mb-4">
          {errorMessage(
            [members, catalog, messaging, moderation].find((q) => q.isError)?.error,
            'Un service n’a pas répondu ; les autres chiffres restent affichés.',
          )}
        </Alert>
      ) : null}

      <Overview period={period} against="vs période précédente" />

      <section aria-labelledby="offre-demande" className="mt-8">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 id="offre-demande" className="text-lg font-semibold text-slate-900">
            Offre et demande
          </h2>
          <Button
            variant="outline"
            size="sm"
            leftIcon={<DownloadIcon size={16} />}
            onClick={() => void exportSupply()}
            disabled={!catalog.data}
          >
            Exporter l’offre et la demande
          </Button>
        </div>
        <div className="grid gap-4 xl:grid-cols-2">
          <Card data-testid="supply">
            <CardHeader>
              <CardTitle>Annonces en cours par niveau et matière</CardTitle>
            </CardHeader>
            <CardBody>
              {!catalog.data ? (
                <Skeleton className="h-40 w-full" />
              ) : catalog.data.by_level_subject.length === 0 ? (
                <p className="text-sm text-slate-500">Aucune annonce classée par niveau et matière.</p>
              ) : (
                <div className="max-h-96 overflow-y-auto">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">Annonces en cours par niveau et matière</caption>
                    <thead className="text-xs text-slate-500 uppercase">
                      <tr>
                        <th scope="col" className="py-2 pr-2">
                          Niveau
                        </th>
                        <th scope="col" className="py-2 pr-2">
                          Matière
                        </th>
                        <th scope="col" className="py-2 text-right">
                          Annonces
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {catalog.data.by_level_subject.map((row) => (
                        <tr key={`${row.level_id}:${row.subject_id}`}>
                          <td className="py-2 pr-2">{row.level}</td>
                          <td className="py-2 pr-2">{row.subject}</td>
                          <td className="py-2 text-right tabular-nums">{whole.format(row.count)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </CardBody>
          </Card>
          <Card data-testid="search-misses">
            <CardHeader>
              <CardTitle>Recherches sans résultat</CardTitle>
            </CardHeader>
            <CardBody>
              <p className="mb-3 text-sm text-slate-600">
                Ce que les visiteurs ont cherché sur la période sans rien trouver : ce que les parents demandent et que
                personne ne vend.
              </p>
              {!catalog.data ? (
                <Skeleton className="h-40 w-full" />
              ) : catalog.data.search_misses.length === 0 ? (
                <p className="text-sm text-slate-500">Aucune recherche sans résultat sur la période.</p>
              ) : (
                <div className="max-h-96 overflow-y-auto">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">Recherches sans résultat</caption>
                    <thead className="text-xs text-slate-500 uppercase">
                      <tr>
                        <th scope="col" className="py-2 pr-2">
                          Recherche
                        </th>
                        <th scope="col" className="py-2 pr-2">
                          Catégorie
                        </th>
                        <th scope="col" className="py-2 pr-2 text-right">
                          Fois
                        </th>
                        <th scope="col" className="py-2">
                          Dernière
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {catalog.data.search_misses.map((miss) => (
                        <tr key={`${miss.query}:${miss.category ?? ''}`}>
                          <td className="py-2 pr-2 font-medium break-all">{miss.query}</td>
                          <td className="py-2 pr-2">{miss.category ?? '—'}</td>
                          <td className="py-2 pr-2 text-right tabular-nums">{whole.format(miss.searches)}</td>
                          <td className="py-2 text-slate-600">{dateTime.format(new Date(miss.last_seen))}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </CardBody>
          </Card>
        </div>
      </section>
    </>
  );
}

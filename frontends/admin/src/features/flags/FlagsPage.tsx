import {
  AlertIcon,
  Badge,
  Button,
  errorMessage,
  formatDateTime,
  notify,
  PageHeader,
  Pagination,
  Select,
  Textarea,
  useDocumentTitle,
} from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { Link } from '@cartable/ui/router';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { useListParams } from '../../shared/useListParams';
import {
  DECISION_LABELS,
  type Decision,
  REASON_LABELS,
  type Report,
  type ReportDecision,
  type ReportStatus,
  type ReportTargetType,
  STATUS_LABELS,
  TARGET_LABELS,
  useDecision,
  useFlags,
} from './api/flags';

const PER_PAGE = 20;
const STATUSES = Object.keys(STATUS_LABELS) as ReportStatus[];
const TARGETS = Object.keys(TARGET_LABELS) as ReportTargetType[];
const SUCCESS: Record<ReportDecision, string> = {
  dismissed: 'Signalement classé sans suite',
  hidden: 'Contenu masqué avec succès',
  warned: 'Membre averti avec succès',
  deactivated: 'Compte désactivé avec succès',
};
/** When another service applies the decision (catalog, auth), it is recorded now and done shortly. */
const UNDER_WAY: Partial<Record<ReportDecision, string>> = {
  hidden: 'Décision enregistrée : l’annonce va être masquée.',
  deactivated: 'Décision enregistrée : le compte va être désactivé.',
};

/** What an administrator may do with a report of this kind. */
function decisionsFor(report: Report): ReportDecision[] {
  const hide = report.target_type === 'book' || report.target_type === 'comment';
  return [
    'dismissed',
    ...(hide ? (['hidden'] as const) : []),
    ...(report.target_owner_id ? (['warned', 'deactivated'] as const) : []),
  ];
}

/** The note is required where the member is told a reason (hiding a listing, deactivating). */
const needsNote = (report: Report, decision: ReportDecision) =>
  decision === 'deactivated' || (decision === 'hidden' && report.target_type === 'book');

function Target({ report }: { report: Report }) {
  const label = report.target_label.length > 140 ? `${report.target_label.slice(0, 139)}…` : report.target_label;
  return (
    <div className="min-w-0">
      <Badge tone="ocean" className="mb-1">
        {TARGET_LABELS[report.target_type]}
      </Badge>
      <p className="break-words text-slate-900">
        {report.target_type === 'book' ? (
          <Link
            to={`/books/${report.target_id}`}
            target="_blank"
            rel="noopener"
            className="tap-target text-primary-700 hover:underline"
          >
            {label}
          </Link>
        ) : report.target_type === 'user' ? (
          <Link to={`/admin/users/${report.target_id}`} className="tap-target text-primary-700 hover:underline">
            {label}
          </Link>
        ) : (
          <span className="italic">« {label} »</span>
        )}
      </p>
      {report.target_owner_id && report.target_type !== 'user' ? (
        <p className="text-xs text-slate-500">
          de{' '}
          <Link to={`/admin/users/${report.target_owner_id}`} className="text-primary-700 hover:underline">
            {report.target_owner_name ?? 'Membre'}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function Reason({ report }: { report: Report }) {
  return (
    <div>
      <span className="font-medium">{REASON_LABELS[report.reason]}</span>
      {report.details ? <p className="break-words text-xs text-slate-600">{report.details}</p> : null}
      <p className="text-xs text-slate-500">
        par{' '}
        <Link to={`/admin/users/${report.reporter.id}`} className="text-primary-700 hover:underline">
          {report.reporter.name}
        </Link>
        {report.reports_on_target > 1 ? ` · ${report.reports_on_target} signalements` : ''}
      </p>
    </div>
  );
}

function State({ report }: { report: Report }) {
  if (report.status === 'open') return <Badge tone="accent">{STATUS_LABELS.open}</Badge>;
  if (report.status === 'applying') {
    return (
      <div>
        <Badge tone="ocean">{STATUS_LABELS.applying}</Badge>
        {report.decision ? <p className="mt-1 text-xs text-slate-500">{DECISION_LABELS[report.decision]}</p> : null}
      </div>
    );
  }
  return (
    <div>
      <Badge tone={report.status === 'dismissed' ? 'neutral' : 'success'}>
        {report.decision ? DECISION_LABELS[report.decision] : STATUS_LABELS[report.status]}
      </Badge>
      {report.handled_at ? <p className="mt-1 text-xs text-slate-500">{formatDateTime(report.handled_at)}</p> : null}
    </div>
  );
}

/**
 * « Signalements »: what members reported, open ones first;
 * dismiss, hide the content, warn or deactivate the member. Admins only (moderation's API).
 */
export default function FlagsPage() {
  useDocumentTitle('Signalements · Administration');
  const { params, update, page } = useListParams();
  const status = (STATUSES as string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as ReportStatus)
    : '';
  const target = (TARGETS as string[]).includes(params.get('type') ?? '')
    ? (params.get('type') as ReportTargetType)
    : '';
  const list = useFlags({ status, target_type: target, page, per_page: PER_PAGE });
  const [acting, setActing] = useState<{ report: Report; decision: ReportDecision } | null>(null);

  const actions = (report: Report) =>
    report.status === 'open' ? (
      <div className="flex flex-col gap-1.5 whitespace-nowrap">
        {decisionsFor(report).map((decision) => (
          <Button
            key={decision}
            size="sm"
            variant={decision === 'deactivated' ? 'danger' : decision === 'dismissed' ? 'ghost' : 'outline'}
            onClick={() => setActing({ report, decision })}
          >
            {
              {
                dismissed: 'Classer sans suite',
                hidden: 'Masquer le contenu',
                warned: 'Avertir le membre',
                deactivated: 'Désactiver le compte',
              }[decision]
            }
          </Button>
        ))}
      </div>
    ) : null;

  const columns: Column<Report>[] = [
    { key: 'target', header: 'Contenu signalé', cell: (r) => <Target report={r} /> },
    { key: 'reason', header: 'Motif', cell: (r) => <Reason report={r} />, className: 'w-[24%]' },
    { key: 'date', header: 'Reçu le', cell: (r) => formatDateTime(r.created_at), className: 'w-[9rem]' },
    { key: 'state', header: 'État', cell: (r) => <State report={r} />, className: 'w-[9rem]' },
    // As wide as its longest button, each on one line.
    { key: 'actions', header: <span className="sr-only">Actions</span>, cell: actions, className: 'w-px' },
  ];

  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            Signalements
            {list.data ? (
              <Badge tone={list.data.open > 0 ? 'accent' : 'neutral'} className="text-sm" data-testid="open-flags">
                {list.data.open} à traiter
              </Badge>
            ) : null}
          </span>
        }
        description="Annonces, membres, commentaires et messages signalés par les membres."
      />
      <div className="mb-4 grid gap-3 sm:grid-cols-2 lg:max-w-2xl">
        <Select label="État" value={status} onChange={(event) => update({ status: event.target.value || null })}>
          <option value="">Tous les états</option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {STATUS_LABELS[value]}
            </option>
          ))}
        </Select>
        <Select label="Contenu" value={target} onChange={(event) => update({ type: event.target.value || null })}>
          <option value="">Tous les contenus</option>
          {TARGETS.map((value) => (
            <option key={value} value={value}>
              {TARGET_LABELS[value]}
            </option>
          ))}
        </Select>
      </div>
      <DataTable
        caption="Signalements"
        testId="flag"
        columns={columns}
        rows={list.data?.data}
        rowKey={(r) => r.id}
        query={list}
        errorText="Les signalements n’ont pas pu être chargés."
        empty={{
          icon: <AlertIcon size={26} />,
          title: status || target ? 'Aucun signalement ne correspond à ces critères' : 'Aucun signalement',
          description: status || target ? undefined : 'Les contenus signalés par les membres apparaîtront ici.',
        }}
        card={(report) => (
          <div className="space-y-2 text-sm">
            <div className="flex items-start justify-between gap-2">
              <Target report={report} />
              <State report={report} />
            </div>
            <Reason report={report} />
            <p className="text-xs text-slate-500">{formatDateTime(report.created_at)}</p>
            {actions(report)}
          </div>
        )}
      />
      <Pagination
        className="mt-5"
        page={list.data?.meta.current_page ?? page}
        lastPage={list.data?.meta.last_page ?? 1}
        onPage={(next) => update({ page: next > 1 ? next : null })}
      />
      {acting ? <DecisionDialog {...acting} onClose={() => setActing(null)} /> : null}
    </>
  );
}

function DecisionDialog({
  report,
  decision,
  onClose,
}: {
  report: Report;
  decision: ReportDecision;
  onClose: () => void;
}) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const required = needsNote(report, decision);
  const run = useDecision({
    onSuccess: (answer) => {
      const underWay = answer.status === 'applying' ? UNDER_WAY[decision] : undefined;
      void notify.success(underWay ?? SUCCESS[decision] ?? answer.message);
      onClose();
    },
    onError: (failure) => void notify.error(errorMessage(failure, 'Erreur lors du traitement du signalement')),
  });
  const titles: Record<ReportDecision, string> = {
    dismissed: 'Classer ce signalement sans suite ?',
    hidden: report.target_type === 'book' ? 'Masquer cette annonce ?' : 'Rejeter ce commentaire ?',
    warned: `Avertir ${report.target_owner_name ?? 'le membre'} ?`,
    deactivated: `Désactiver le compte de ${report.target_owner_name ?? 'ce membre'} ?`,
  };
  const explanations: Record<ReportDecision, string> = {
    dismissed: 'Les signalements ouverts sur ce contenu seront fermés sans autre action.',
    hidden:
      report.target_type === 'book'
        ? 'L’annonce quitte le catalogue ; son propriétaire reçoit la raison par email.'
        : 'Le commentaire n’est plus visible.',
    warned: 'Le membre reçoit un email d’avertissement avec le motif et votre précision.',
    deactivated: 'Le membre ne peut plus se connecter et ses annonces quittent le catalogue.',
  };
  const submit = () => {
    const trimmed = note.trim();
    if (required && trimmed.length < (decision === 'hidden' ? 5 : 2)) {
      setError(`Indiquez la raison (au moins ${decision === 'hidden' ? 5 : 2} caractères).`);
      return;
    }
    run.mutate({ report, decision, note: trimmed } satisfies Decision);
  };
  return (
    <Dialog
      open
      role="alertdialog"
      onClose={run.isPending ? () => {} : onClose}
      title={titles[decision]}
      description={explanations[decision]}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={run.isPending}>
            Annuler
          </Button>
          <Button variant={decision === 'deactivated' ? 'danger' : 'primary'} loading={run.isPending} onClick={submit}>
            Confirmer
          </Button>
        </>
      }
    >
      <Textarea
        label={required ? 'Raison (communiquée au membre)' : 'Précision (facultative)'}
        value={note}
        maxLength={500}
        rows={3}
        onChange={(event) => {
          setNote(event.target.value);
          setError(undefined);
        }}
        error={error}
      />
    </Dialog>
  );
}

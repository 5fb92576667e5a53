import {
  Button,
  cn,
  EmptyState,
  errorMessage,
  formatDateTime,
  InboxIcon,
  Input,
  LoadFailed,
  notify,
  PageHeader,
  Pagination,
  RefreshIcon,
  SearchIcon,
  Select,
  Skeleton,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { Link, useSearchParams } from '@cartable/ui/router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LOAD_ERROR } from '../../shared/messages';
import {
  CONTACT_STATUS_LABELS,
  CONTACT_STATUSES,
  type Contact,
  type ContactStatus,
  contactKeys,
  useContactStats,
  useContacts,
  useDeleteContacts,
} from './api/contacts';
import { StatusBadge } from './StatusBadge';

const PER_PAGE = 15;
const STAT_LABELS: Record<ContactStatus, string> = {
  new: 'Nouveaux',
  read: 'Lus',
  answered: 'Répondus',
  archived: 'Archivés',
};

function isStatus(value: string | null): value is ContactStatus {
  return value !== null && (CONTACT_STATUSES as string[]).includes(value);
}

function Stats({ active, onPick }: { active: ContactStatus | ''; onPick: (status: ContactStatus | '') => void }) {
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

/** Contact messages (SPEC section 2, admin "contacts"): filter, search, stats, pages, bulk delete. */
export default function ContactsPage() {
  useDocumentTitle('Messages de contact · Administration');
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status: ContactStatus | '' = isStatus(rawStatus) ? rawStatus : '';
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [term, setTerm] = useState(search);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<{ ids: string[]; label: string } | null>(null);
  const queryClient = useQueryClient();

  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      return next;
    });

  // The search is sent 300 ms after the last key.
  // biome-ignore lint/correctness/useExhaustiveDependencies: debounced on the typed text only
  useEffect(() => {
    if (term.trim() === search) return;
    const timer = window.setTimeout(() => update({ search: term.trim() || null, page: null }), 300);
    return () => window.clearTimeout(timer);
  }, [term]);

  const query = { status, search, page, per_page: PER_PAGE };
  const list = useContacts(query);
  const rows = list.data?.data ?? [];
  const meta = list.data?.meta;

  // The selection only holds rows of the page on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the page's rows change
  useEffect(() => {
    setSelected((current) => {
      const visible = new Set(rows.map((row) => row.id));
      const kept = [...current].filter((id) => visible.has(id));
      return kept.length === current.size ? current : new Set(kept);
    });
  }, [list.data]);

  const remove = useDeleteContacts({
    onSuccess: (deleted) => {
      setConfirm(null);
      setSelected(new Set());
      void notify.success(deleted > 1 ? `${deleted} messages supprimés avec succès` : 'Message supprimé avec succès');
    },
    onError: (error) => {
      setConfirm(null);
      void notify.error(errorMessage(error, 'Erreur lors de la suppression des messages'));
    },
  });

  const allChecked = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allChecked ? new Set() : new Set(rows.map((row) => row.id)));

  const askDelete = (contact: Contact) =>
    setConfirm({ ids: [contact.id], label: `le message de ${contact.name} « ${contact.subject} »` });

  const checkbox = (contact: Contact) => (
    <input
      type="checkbox"
      className="h-5 w-5 cursor-pointer rounded accent-primary-700"
      checked={selected.has(contact.id)}
      onChange={() => toggle(contact.id)}
      aria-label={`Sélectionner le message de ${contact.name}`}
    />
  );

  return (
    <>
      <PageHeader
        title="Messages de contact"
        description="Les messages envoyés depuis le formulaire de contact."
        actions={
          <Button
            variant="outline"
            size="sm"
            leftIcon={<RefreshIcon size={16} />}
            loading={list.isFetching && !list.isPending}
            onClick={() => void queryClient.invalidateQueries({ queryKey: contactKeys.all })}
          >
            Actualiser
          </Button>
        }
      />

      <Stats active={status} onPick={(next) => update({ status: next || null, page: null })} />

      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
        <Input
          label="Rechercher"
          type="search"
          placeholder="Nom, email, sujet ou message…"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          trailing={<SearchIcon size={18} className="mr-2 text-slate-400" />}
        />
        <Select
          label="Statut"
          value={status}
          onChange={(event) => update({ status: event.target.value || null, page: null })}
        >
          <option value="">Tous les statuts</option>
          {CONTACT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {CONTACT_STATUS_LABELS[value]}
            </option>
          ))}
        </Select>
      </div>

      {selected.size > 0 ? (
        <div
          className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-2"
          role="status"
        >
          <span className="text-sm font-medium text-red-900">
            {selected.size} message{selected.size > 1 ? 's' : ''} sélectionné{selected.size > 1 ? 's' : ''}
          </span>
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" size="sm" onClick={() => setSelected(new Set())}>
              Désélectionner
            </Button>
            <Button
              variant="danger"
              size="sm"
              leftIcon={<TrashIcon size={16} />}
              onClick={() =>
                setConfirm({
                  ids: [...selected],
                  label: `${selected.size} message${selected.size > 1 ? 's' : ''}`,
                })
              }
            >
              Supprimer la sélection
            </Button>
          </div>
        </div>
      ) : null}

      {list.isError && !list.data ? (
        <LoadFailed title={LOAD_ERROR} query={list} fallback="Les messages n’ont pas pu être chargés." />
      ) : list.isPending ? (
        <div className="space-y-3" data-testid="contacts-loading">
          {[0, 1, 2, 3].map((n) => (
            <Skeleton key={n} className="h-14 w-full" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <EmptyState
          icon={<InboxIcon size={26} />}
          title="Aucun message de contact"
          description={search || status ? 'Aucun message ne correspond à ces critères.' : undefined}
          action={
            search || status ? (
              <Button
                variant="outline"
                onClick={() => {
                  setTerm('');
                  update({ search: null, status: null, page: null });
                }}
              >
                Effacer les filtres
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <div className="hidden overflow-x-auto rounded-xl border border-slate-200 bg-white desk:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Messages de contact</caption>
              <thead className="bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="w-10 px-4 py-3">
                    <input
                      type="checkbox"
                      className="h-5 w-5 cursor-pointer rounded accent-primary-700"
                      checked={allChecked}
                      onChange={toggleAll}
                      aria-label="Sélectionner tous les messages de la page"
                    />
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Expéditeur
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Sujet
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Statut
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    Reçu le
                  </th>
                  <th scope="col" className="px-4 py-3 font-semibold">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((contact) => (
                  <tr
                    key={contact.id}
                    data-testid="contact-row"
                    className={cn(contact.status === 'new' && 'bg-accent-50/50')}
                  >
                    <td className="px-4 py-3">{checkbox(contact)}</td>
                    <td className="px-4 py-3">
                      <p className={cn('text-slate-900', contact.status === 'new' && 'font-semibold')}>
                        {contact.name}
                      </p>
                      <p className="text-xs text-slate-500">{contact.email}</p>
                    </td>
                    <td className="max-w-sm px-4 py-3">
                      <Link
                        to={`/admin/contacts/${contact.id}`}
                        className={cn('text-primary-700 hover:underline', contact.status === 'new' && 'font-semibold')}
                      >
                        {contact.subject}
                      </Link>
                      <p className="truncate text-xs text-slate-500">{contact.message}</p>
                    </td>
                    <td className="px-4 py-3">
                      <StatusBadge status={contact.status} />
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-600">{formatDateTime(contact.created_at)}</td>
                    <td className="px-4 py-3">
                      <Button
                        variant="ghost"
                        size="icon"
                        className="text-red-700 hover:bg-red-50"
                        aria-label={`Supprimer le message de ${contact.name}`}
                        onClick={() => askDelete(contact)}
                      >
                        <TrashIcon size={18} />
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <div className="desk:hidden">
            <label className="mb-2 flex items-center gap-3 px-1 text-sm text-slate-700">
              <input
                type="checkbox"
                className="h-5 w-5 cursor-pointer rounded accent-primary-700"
                checked={allChecked}
                onChange={toggleAll}
              />
              Tout sélectionner
            </label>
            <ul className="space-y-3">
              {rows.map((contact) => (
                <li
                  key={contact.id}
                  data-testid="contact-card"
                  className={cn(
                    'flex gap-3 rounded-xl border bg-white p-4 shadow-sm',
                    contact.status === 'new' ? 'border-accent-300' : 'border-slate-200',
                  )}
                >
                  <div className="pt-0.5">{checkbox(contact)}</div>
                  <div className="min-w-0 flex-1">
                    <div className="flex items-start justify-between gap-2">
                      <Link
                        to={`/admin/contacts/${contact.id}`}
                        className={cn('text-primary-700 hover:underline', contact.status === 'new' && 'font-semibold')}
                      >
                        {contact.subject}
                      </Link>
                      <StatusBadge status={contact.status} />
                    </div>
                    <p className="mt-1 text-sm text-slate-800">
                      {contact.name} <span className="text-slate-500">· {contact.email}</span>
                    </p>
                    <p className="mt-1 line-clamp-2 text-sm text-slate-600">{contact.message}</p>
                    <div className="mt-2 flex items-center justify-between">
                      <span className="text-xs text-slate-500">{formatDateTime(contact.created_at)}</span>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-red-700 hover:bg-red-50"
                        leftIcon={<TrashIcon size={16} />}
                        aria-label={`Supprimer le message de ${contact.name}`}
                        onClick={() => askDelete(contact)}
                      >
                        Supprimer
                      </Button>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </>
      )}

      <Pagination
        edges
        className="mt-5"
        page={meta?.current_page ?? page}
        lastPage={meta?.last_page ?? 1}
        onPage={(target) => update({ page: target > 1 ? String(target) : null })}
      />

      <ConfirmDialog
        open={confirm !== null}
        title={confirm && confirm.ids.length > 1 ? 'Supprimer ces messages ?' : 'Supprimer ce message ?'}
        description={confirm ? `Vous allez supprimer définitivement ${confirm.label}.` : undefined}
        confirmLabel="Supprimer"
        loading={remove.isPending}
        onConfirm={() => confirm && remove.mutate(confirm.ids)}
        onCancel={() => setConfirm(null)}
      />
    </>
  );
}

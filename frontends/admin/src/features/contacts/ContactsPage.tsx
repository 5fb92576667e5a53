import {
  Button,
  errorMessage,
  notify,
  PageHeader,
  Pagination,
  RefreshIcon,
  Select,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { useSearchParams } from '@cartable/ui/router';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { SearchField } from '../../shared/SearchField';
import {
  CONTACT_STATUS_LABELS,
  CONTACT_STATUSES,
  type Contact,
  type ContactStatus,
  contactKeys,
  useContacts,
  useDeleteContacts,
} from './api/contacts';
import { ContactStats } from './ContactStats';
import { ContactsList } from './ContactsList';
import { SelectionBar } from './SelectionBar';

const PER_PAGE = 15;

function isStatus(value: string | null): value is ContactStatus {
  return value !== null && (CONTACT_STATUSES as string[]).includes(value);
}

/** Contact messages (SPEC section 2, admin "contacts"): filter, search, stats, pages, bulk delete. */
export default function ContactsPage() {
  useDocumentTitle('Messages de contact · Administration');
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const status: ContactStatus | '' = isStatus(rawStatus) ? rawStatus : '';
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
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

      <ContactStats active={status} onPick={(next) => update({ status: next || null, page: null })} />

      <div className="mb-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
        <SearchField
          label="Rechercher"
          placeholder="Nom, email, sujet ou message…"
          value={search}
          onSearch={(next) => update({ search: next, page: null })}
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

      <SelectionBar
        count={selected.size}
        onClear={() => setSelected(new Set())}
        onDelete={() =>
          setConfirm({
            ids: [...selected],
            label: `${selected.size} message${selected.size > 1 ? 's' : ''}`,
          })
        }
      />

      <ContactsList
        list={list}
        selected={selected}
        allChecked={allChecked}
        onToggle={toggle}
        onToggleAll={toggleAll}
        onDelete={askDelete}
        filtered={Boolean(search || status)}
        onClearFilters={() => update({ search: null, status: null, page: null })}
      />

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

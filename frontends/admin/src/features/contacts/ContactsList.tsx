import { Button, cn, EmptyState, formatDateTime, InboxIcon, LoadFailed, Skeleton, TrashIcon } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { LOAD_ERROR } from '../../shared/messages';
import type { Contact, useContacts } from './api/contacts';
import { StatusBadge } from './StatusBadge';

function SelectBox({
  contact,
  checked,
  onToggle,
}: {
  contact: Contact;
  checked: boolean;
  onToggle: (id: string) => void;
}) {
  // The box is 20 px; its label around it is the 44 px that a finger touches.
  return (
    <label className="-m-3 flex h-11 w-11 shrink-0 cursor-pointer items-center justify-center">
      <input
        type="checkbox"
        className="h-5 w-5 cursor-pointer rounded accent-primary-700"
        checked={checked}
        onChange={() => onToggle(contact.id)}
        aria-label={`Sélectionner le message de ${contact.name}`}
      />
    </label>
  );
}

/**
 * The page's messages: a table on a wide screen, cards on a phone, each with its box to select it
 * and « Supprimer »; or the list's loading, failed and empty states.
 */
export function ContactsList({
  list,
  selected,
  allChecked,
  onToggle,
  onToggleAll,
  onDelete,
  filtered,
  onClearFilters,
}: {
  list: ReturnType<typeof useContacts>;
  selected: Set<string>;
  /** Every message of the page is selected. */
  allChecked: boolean;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
  onDelete: (contact: Contact) => void;
  /** A search or a status is set: an empty list offers to clear them. */
  filtered: boolean;
  onClearFilters: () => void;
}) {
  const rows = list.data?.data ?? [];
  return list.isError && !list.data ? (
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
      description={filtered ? 'Aucun message ne correspond à ces critères.' : undefined}
      action={
        filtered ? (
          <Button variant="outline" onClick={onClearFilters}>
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
                  onChange={onToggleAll}
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
                <td className="px-4 py-3">
                  <SelectBox contact={contact} checked={selected.has(contact.id)} onToggle={onToggle} />
                </td>
                <td className="px-4 py-3">
                  <p className={cn('text-slate-900', contact.status === 'new' && 'font-semibold')}>{contact.name}</p>
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
                    onClick={() => onDelete(contact)}
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
        <label className="mb-2 flex min-h-11 cursor-pointer items-center gap-3 px-1 text-sm text-slate-700">
          <input
            type="checkbox"
            className="h-5 w-5 cursor-pointer rounded accent-primary-700"
            checked={allChecked}
            onChange={onToggleAll}
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
              <div className="pt-0.5">
                <SelectBox contact={contact} checked={selected.has(contact.id)} onToggle={onToggle} />
              </div>
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
                    onClick={() => onDelete(contact)}
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
  );
}

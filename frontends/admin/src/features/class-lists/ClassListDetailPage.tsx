import { classListRejectRequestSchema } from '@cartable/contracts';
import { classListKindLabels } from '@cartable/contracts/labels';
import {
  Badge,
  BookIcon,
  Button,
  CheckCircleIcon,
  CopyIcon,
  DownloadIcon,
  errorMessage,
  formatDate,
  LoadFailed,
  notify,
  PageHeader,
  PencilIcon,
  PlusIcon,
  Skeleton,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { Link, useNavigate, useParams } from '@cartable/ui/router';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { ReasonDialog } from '../../shared/ReasonDialog';
import {
  adminClassListQuery,
  type ClassListItem,
  useApproveList,
  useDeleteItem,
  useDeleteList,
  useRejectList,
  useUpdateList,
} from './api/class-lists';
import { ListStatusBadge } from './ClassListsPage';
import { CopyListDialog } from './dialogs/CopyListDialog';
import { ImportItemsDialog } from './dialogs/ImportItemsDialog';
import { ItemFormDialog } from './dialogs/ItemFormDialog';
import { ListFormDialog } from './dialogs/ListFormDialog';
import { ListVersions } from './ListVersions';

/**
 * One list: its fields, its books (add, edit, replace, withdraw, CSV import) and the versions
 * those changes made, copy, publish, approve or reject.
 */
export default function ClassListDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const listId = Number(id);
  const detail = useQuery({ ...adminClassListQuery(listId), enabled: listId > 0 });
  const list = detail.data;
  useDocumentTitle(list ? `Liste ${list.level.name} ${list.school_year} · Administration` : 'Liste de manuels');

  const [editing, setEditing] = useState(false);
  const [item, setItem] = useState<{ item: ClassListItem | null; replace?: boolean } | null>(null);
  const [removingItem, setRemovingItem] = useState<ClassListItem | null>(null);
  const [copying, setCopying] = useState(false);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const approve = useApproveList();
  const reject = useRejectList();
  const removeList = useDeleteList();
  const removeItem = useDeleteItem();
  const update = useUpdateList();

  const fail = (fallback: string) => (error: unknown) => void notify.error(errorMessage(error, fallback));

  if (detail.isError && !list) {
    return <LoadFailed title="La liste n’a pas pu être chargée" query={detail} />;
  }
  if (!list) {
    return (
      <div className="space-y-4" aria-busy="true">
        <span className="sr-only" role="status">
          Chargement de la liste…
        </span>
        <Skeleton className="h-10 w-2/3" />
        <Skeleton className="h-32 w-full rounded-xl" />
        <Skeleton className="h-64 w-full rounded-xl" />
      </div>
    );
  }

  // Counted from 1 in the list's order (positions are the server's sort keys, from 0, with gaps).
  const rank = new Map(list.items.map((item, n) => [item.id, n + 1]));
  const columns: Column<ClassListItem>[] = [
    { key: 'pos', header: '#', cell: (i) => rank.get(i.id), className: 'w-12' },
    {
      key: 'title',
      header: 'Manuel',
      cell: (i) => (
        <span>
          <span className="font-medium text-slate-900">{i.title}</span>
          <span className="block text-xs text-slate-500">
            {[i.author, i.publisher, i.edition, i.year, i.isbn && `ISBN ${i.isbn}`].filter(Boolean).join(' · ')}
          </span>
        </span>
      ),
    },
    { key: 'subject', header: 'Matière', cell: (i) => i.subject?.name ?? '—', className: 'w-40' },
    {
      key: 'req',
      header: 'Statut',
      cell: (i) => <Badge tone={i.requirement === 'required' ? 'primary' : 'neutral'}>{i.requirement_label}</Badge>,
      className: 'w-28',
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (i) => itemActions(i),
      className: 'w-[22rem]',
    },
  ];

  function itemActions(i: ClassListItem) {
    return (
      <div className="flex flex-wrap gap-2 lg:flex-nowrap">
        <Button variant="outline" size="sm" leftIcon={<PencilIcon size={15} />} onClick={() => setItem({ item: i })}>
          Modifier<span className="sr-only"> {i.title}</span>
        </Button>
        <Button variant="outline" size="sm" onClick={() => setItem({ item: i, replace: true })}>
          Remplacer<span className="sr-only"> {i.title}</span>
        </Button>
        <Button variant="danger" size="sm" leftIcon={<TrashIcon size={15} />} onClick={() => setRemovingItem(i)}>
          Retirer<span className="sr-only"> {i.title}</span>
        </Button>
      </div>
    );
  }

  const setStatus = (status: 'published' | 'draft') =>
    update.mutate(
      { id: list.id, body: { status } },
      { onSuccess: (a) => void notify.success(a.message), onError: fail('La liste n’a pas pu être modifiée.') },
    );

  return (
    <>
      <Link
        to="/admin/class-lists"
        className="mb-3 inline-flex min-h-11 items-center text-sm font-semibold text-primary-700 hover:underline"
      >
        ← Listes de manuels
      </Link>
      <PageHeader
        title={`${list.level.name} · ${list.school_year}`}
        description={`${list.kind === 'school' ? (list.school_name ?? 'Établissement') : classListKindLabels.official}${list.city ? ` · ${list.city.name}` : ''}`}
        actions={
          <>
            <Button variant="outline" size="sm" leftIcon={<PencilIcon size={15} />} onClick={() => setEditing(true)}>
              Modifier
            </Button>
            <Button variant="outline" size="sm" leftIcon={<CopyIcon size={15} />} onClick={() => setCopying(true)}>
              Copier pour une autre année
            </Button>
            <Button variant="danger" size="sm" leftIcon={<TrashIcon size={15} />} onClick={() => setDeleting(true)}>
              Supprimer
            </Button>
          </>
        }
      />

      <section
        className="mb-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        data-testid="class-list-status"
      >
        <div className="flex flex-wrap items-center gap-2">
          <ListStatusBadge status={list.status} />
          <span className="text-sm text-slate-600">
            {list.items_count} manuel{list.items_count > 1 ? 's' : ''} dont {list.required_count} obligatoire
            {list.required_count > 1 ? 's' : ''} · modifiée le {formatDate(list.updated_at)}
          </span>
        </div>
        {list.source_note ? <p className="mt-2 text-sm text-slate-700">Source : {list.source_note}</p> : null}
        {list.status === 'rejected' && list.rejection_reason ? (
          <p className="mt-2 text-sm text-red-800">Motif du refus : {list.rejection_reason}</p>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {list.status === 'proposed' ? (
            <>
              <Button
                size="sm"
                leftIcon={<CheckCircleIcon size={15} />}
                loading={approve.isPending}
                onClick={() =>
                  approve.mutate(list.id, {
                    onSuccess: (a) => void notify.success(a.message),
                    onError: fail('La liste n’a pas pu être validée.'),
                  })
                }
              >
                Valider et publier
              </Button>
              <Button variant="danger" size="sm" onClick={() => setRejecting(true)}>
                Refuser
              </Button>
            </>
          ) : list.status === 'published' ? (
            <Button variant="outline" size="sm" loading={update.isPending} onClick={() => setStatus('draft')}>
              Retirer de la publication
            </Button>
          ) : (
            <Button size="sm" loading={update.isPending} onClick={() => setStatus('published')}>
              Publier
            </Button>
          )}
        </div>
      </section>

      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">Manuels</h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" leftIcon={<DownloadIcon size={15} />} onClick={() => setImporting(true)}>
            Importer (CSV)
          </Button>
          <Button size="sm" leftIcon={<PlusIcon size={15} />} onClick={() => setItem({ item: null })}>
            Ajouter un manuel
          </Button>
        </div>
      </div>
      <DataTable
        caption={`Manuels de la liste ${list.level.name} ${list.school_year}`}
        testId="class-list-item"
        columns={columns}
        rows={list.items}
        rowKey={(i) => i.id}
        query={detail}
        empty={{
          icon: <BookIcon size={26} />,
          title: 'Aucun manuel dans cette liste',
          action: <Button onClick={() => setItem({ item: null })}>Ajouter un manuel</Button>,
        }}
        card={(i) => (
          <div className="space-y-1">
            <p className="font-medium text-slate-900">
              {rank.get(i.id)}. {i.title}
            </p>
            <p className="text-xs text-slate-500">
              {[i.author, i.publisher, i.year, i.subject?.name, i.requirement_label].filter(Boolean).join(' · ')}
            </p>
            {itemActions(i)}
          </div>
        )}
      />

      <ListFormDialog open={editing} list={list} onClose={() => setEditing(false)} />
      <ListVersions listId={list.id} />

      <ItemFormDialog
        open={item !== null}
        list={list}
        item={item?.item ?? null}
        replace={item?.replace ?? false}
        onClose={() => setItem(null)}
      />
      <CopyListDialog
        open={copying}
        list={list}
        onClose={() => setCopying(false)}
        onCopied={(copy) => navigate(`/admin/class-lists/${copy.id}`)}
      />
      <ImportItemsDialog open={importing} list={list} onClose={() => setImporting(false)} />
      <ConfirmDialog
        open={removingItem !== null}
        title="Retirer ce manuel de la liste ?"
        description={
          removingItem
            ? `« ${removingItem.title} » sera retiré de la liste.${list.status === 'published' ? ' Les familles qui ont enregistré la liste et les vendeurs de ce manuel seront prévenus.' : ''}`
            : undefined
        }
        confirmLabel="Retirer"
        loading={removeItem.isPending}
        onCancel={() => setRemovingItem(null)}
        onConfirm={() =>
          removingItem &&
          removeItem.mutate(
            { listId: list.id, itemId: removingItem.id },
            {
              onSuccess: (a) => {
                setRemovingItem(null);
                void notify.success(a.message);
              },
              onError: fail('Le manuel n’a pas pu être retiré.'),
            },
          )
        }
      />
      <ConfirmDialog
        open={deleting}
        title="Supprimer cette liste ?"
        description="La liste, ses manuels et les listes enregistrées par les parents seront supprimés."
        confirmLabel="Supprimer"
        loading={removeList.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          removeList.mutate(list.id, {
            onSuccess: (a) => {
              void notify.success(a.message);
              navigate('/admin/class-lists', { replace: true });
            },
            onError: fail('La liste n’a pas pu être supprimée.'),
          })
        }
      />
      <ReasonDialog
        open={rejecting}
        onClose={() => setRejecting(false)}
        title="Refuser la liste proposée"
        description="Le motif est envoyé à la personne qui l’a proposée."
        confirmLabel="Refuser"
        danger
        schema={classListRejectRequestSchema}
        loading={reject.isPending}
        onConfirm={({ reason }) =>
          reject.mutate(
            { id: list.id, reason },
            {
              onSuccess: (a) => {
                setRejecting(false);
                void notify.success(a.message);
              },
              onError: fail('La liste n’a pas pu être refusée.'),
            },
          )
        }
      />
    </>
  );
}

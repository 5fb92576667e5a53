import {
  Badge,
  Button,
  ChevronDownIcon,
  errorMessage,
  ImageIcon,
  notify,
  PageHeader,
  PencilIcon,
  PlusIcon,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { type Banner, useBanners, useDeleteBanner, useReorderBanners } from './api/banners';
import { BannerFormDialog } from './BannerFormDialog';

/** The home carousel's banners (SPEC section 2 « Bannières »), in their order. */
export default function BannersPage() {
  useDocumentTitle('Bannières · Administration');
  const queryClient = useQueryClient();
  const list = useBanners();
  const [editing, setEditing] = useState<{ banner: Banner | null } | null>(null);
  const [toDelete, setToDelete] = useState<Banner | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const rows = list.data ? [...list.data].sort((a, b) => a.order - b.order || a.id - b.id) : undefined;

  const remove = useDeleteBanner(queryClient, {
    onSuccess: (message) => {
      setToDelete(null);
      void notify.success(message ?? 'Bannière supprimée avec succès');
    },
    onError: (error) => {
      setToDelete(null);
      void notify.error(errorMessage(error, 'La bannière n’a pas pu être supprimée.'));
    },
  });
  const reorder = useReorderBanners(queryClient, {
    onSuccess: () => void notify.success('Ordre des bannières enregistré'),
    onError: (error) => void notify.error(errorMessage(error, 'L’ordre n’a pas pu être enregistré.')),
  });

  const move = (banner: Banner, to: number) => {
    if (!rows || to < 0 || to >= rows.length) return;
    const next = rows.filter((b) => b.id !== banner.id);
    next.splice(to, 0, banner);
    reorder.mutate(next);
  };

  const orderButtons = (banner: Banner) => {
    const index = rows?.findIndex((b) => b.id === banner.id) ?? 0;
    return (
      <div className="flex items-center gap-1">
        <span className="w-6 text-center font-semibold text-slate-700">{index + 1}</span>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Monter ${banner.title}`}
          title="Monter"
          disabled={index === 0 || reorder.isPending}
          onClick={() => move(banner, index - 1)}
        >
          <ChevronDownIcon size={18} className="rotate-180" />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Descendre ${banner.title}`}
          title="Descendre"
          disabled={index === (rows?.length ?? 1) - 1 || reorder.isPending}
          onClick={() => move(banner, index + 1)}
        >
          <ChevronDownIcon size={18} />
        </Button>
      </div>
    );
  };

  const preview = (banner: Banner) =>
    banner.image_url ? (
      <img
        src={banner.image_url}
        alt={`Bannière « ${banner.title} »`}
        className={`aspect-[3/1] w-full max-w-48 rounded-md object-cover ${banner.color === 'dark' ? 'bg-slate-800' : 'bg-slate-100'}`}
        loading="lazy"
      />
    ) : (
      <span className="flex aspect-[3/1] w-full max-w-48 items-center justify-center rounded-md bg-slate-100 text-slate-400">
        <ImageIcon size={20} />
      </span>
    );

  const texts = (banner: Banner) => (
    <span className="min-w-0">
      <span className="block font-medium text-slate-900">{banner.title}</span>
      {banner.subtitle ? <span className="block text-xs text-slate-500">{banner.subtitle}</span> : null}
      {banner.button_text || banner.button_link ? (
        <span className="block text-xs break-all text-slate-500">
          {banner.button_text ?? 'Bouton'} → {banner.button_link ?? 'sans lien'}
        </span>
      ) : null}
    </span>
  );

  const badges = (banner: Banner) => (
    <span className="flex flex-wrap gap-1">
      {banner.is_active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}
      <Badge tone={banner.color === 'dark' ? 'ocean' : 'neutral'}>{banner.color === 'dark' ? 'Sombre' : 'Clair'}</Badge>
    </span>
  );

  const actions = (banner: Banner, withLabels = false) => (
    <div className={withLabels ? 'flex flex-wrap gap-1' : 'flex gap-1'}>
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        aria-label={`Modifier ${banner.title}`}
        title="Modifier"
        onClick={() => setEditing({ banner })}
        leftIcon={withLabels ? <PencilIcon size={16} /> : undefined}
      >
        {withLabels ? 'Modifier' : <PencilIcon size={18} />}
      </Button>
      <Button
        variant="ghost"
        size={withLabels ? 'sm' : 'icon'}
        className="text-red-700 hover:bg-red-50"
        aria-label={`Supprimer ${banner.title}`}
        title="Supprimer"
        onClick={() => setToDelete(banner)}
        leftIcon={withLabels ? <TrashIcon size={16} /> : undefined}
      >
        {withLabels ? 'Supprimer' : <TrashIcon size={18} />}
      </Button>
    </div>
  );

  // Drag and drop on the handle column, beside the keyboard's up and down buttons.
  const dragHandle = (banner: Banner) => (
    // biome-ignore lint/a11y/noStaticElementInteractions: mouse shortcut; the buttons beside it do the same by keyboard
    <div
      draggable
      onDragStart={() => setDragged(banner.id)}
      onDragOver={(event) => event.preventDefault()}
      onDrop={() => {
        const from = rows?.find((b) => b.id === dragged);
        const to = rows?.findIndex((b) => b.id === banner.id) ?? -1;
        setDragged(null);
        if (from && from.id !== banner.id && to >= 0) move(from, to);
      }}
      className="cursor-grab"
      title="Glisser pour déplacer"
    >
      {orderButtons(banner)}
    </div>
  );

  const columns: Column<Banner>[] = [
    { key: 'order', header: 'Ordre', cell: dragHandle, className: 'w-36' },
    { key: 'image', header: 'Aperçu', cell: preview, className: 'w-52' },
    { key: 'texts', header: 'Contenu', cell: texts },
    { key: 'state', header: 'État', cell: badges, className: 'w-36' },
    { key: 'actions', header: <span className="sr-only">Actions</span>, cell: (b) => actions(b), className: 'w-px' },
  ];

  return (
    <>
      <PageHeader
        title="Bannières"
        description="Le carrousel de la page d’accueil : les bannières actives, dans cet ordre."
        actions={
          <Button size="sm" leftIcon={<PlusIcon size={16} />} onClick={() => setEditing({ banner: null })}>
            Nouvelle bannière
          </Button>
        }
      />
      <DataTable
        caption="Bannières"
        testId="banner"
        columns={columns}
        rows={rows}
        rowKey={(banner) => banner.id}
        query={list}
        errorText="Les bannières n’ont pas pu être chargées."
        rowClassName={(banner) => (banner.is_active ? undefined : 'opacity-70')}
        empty={{
          icon: <ImageIcon size={26} />,
          title: 'Aucune bannière',
          description: 'L’accueil affiche ses diapositives par défaut tant qu’aucune bannière n’est active.',
          action: <Button onClick={() => setEditing({ banner: null })}>Nouvelle bannière</Button>,
        }}
        card={(banner) => (
          <div className="space-y-2">
            {preview(banner)}
            {texts(banner)}
            {badges(banner)}
            <div className="flex flex-wrap items-center justify-between gap-2">
              {orderButtons(banner)}
              {actions(banner, true)}
            </div>
          </div>
        )}
      />
      <BannerFormDialog
        open={editing !== null}
        banner={editing?.banner ?? null}
        nextOrder={rows?.length ?? 0}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title="Supprimer la bannière ?"
        description={toDelete ? `« ${toDelete.title} » et son image seront supprimées.` : undefined}
        confirmLabel="Supprimer"
        loading={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
        onCancel={() => setToDelete(null)}
      />
    </>
  );
}

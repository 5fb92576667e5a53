import { planKindLabels } from '@cartable/contracts/labels';
import {
  Badge,
  Button,
  CardIcon,
  errorMessage,
  formatPrice,
  notify,
  PageHeader,
  PencilIcon,
  PlusIcon,
  TrashIcon,
  useDocumentTitle,
} from '@cartable/ui';
import { ConfirmDialog } from '@cartable/ui/overlays';
import { useState } from 'react';
import { type Column, DataTable } from '../../shared/DataTable';
import { type Plan, useDeletePlan, usePlans, useSavePlan } from './api/subscriptions';
import { PlanFormDialog } from './PlanFormDialog';

function gives(plan: Plan): string {
  if (plan.kind === 'boost') return `1 annonce à la une, ${plan.duration_days} j`;
  const parts = [`${plan.boost_slots} annonce(s) à la une`];
  if (plan.seller_badge) parts.push('badge vendeur');
  parts.push(plan.listings_limit === null ? 'annonces illimitées' : `${plan.listings_limit} annonces max.`);
  return parts.join(', ');
}

/** « Plans d'abonnement »: list, create and edit, activate or deactivate, delete (refused once used). */
export default function PlansPage() {
  useDocumentTitle("Plans d'abonnement · Administration");
  const plans = usePlans();
  const save = useSavePlan();
  const remove = useDeletePlan();
  const [editing, setEditing] = useState<Plan | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Plan | null>(null);
  const rows = plans.data;
  const nextPosition = (rows ?? []).reduce((max, p) => Math.max(max, p.position + 1), 0);

  const toggle = (plan: Plan) =>
    save.mutate(
      {
        id: plan.id,
        body: {
          kind: plan.kind,
          name: plan.name,
          description: plan.description,
          price: plan.price,
          duration_days: plan.duration_days,
          boost_slots: plan.boost_slots,
          seller_badge: plan.seller_badge,
          listings_limit: plan.listings_limit,
          active: !plan.active,
          position: plan.position,
        },
      },
      {
        onSuccess: () => void notify.success(plan.active ? 'Plan désactivé' : 'Plan activé'),
        onError: (error) => void notify.error(errorMessage(error, 'Erreur lors de la mise à jour du plan')),
      },
    );

  const actions = (plan: Plan) => (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="outline"
        size="sm"
        leftIcon={<PencilIcon size={15} />}
        onClick={() => setEditing(plan)}
        aria-label={`Modifier ${plan.name}`}
      >
        Modifier
      </Button>
      <Button variant="outline" size="sm" onClick={() => toggle(plan)} disabled={save.isPending}>
        {plan.active ? 'Désactiver' : 'Activer'}
      </Button>
      <Button
        variant="danger"
        size="sm"
        leftIcon={<TrashIcon size={15} />}
        onClick={() => setDeleting(plan)}
        aria-label={`Supprimer ${plan.name}`}
      >
        Supprimer
      </Button>
    </div>
  );

  const columns: Column<Plan>[] = [
    { key: 'position', header: '#', cell: (p) => p.position, className: 'w-10' },
    {
      key: 'name',
      header: 'Plan',
      cell: (p) => (
        <>
          <p className="font-semibold text-slate-900">{p.name}</p>
          <p className="text-xs text-slate-500">{planKindLabels[p.kind]}</p>
        </>
      ),
    },
    { key: 'price', header: 'Prix', cell: (p) => formatPrice(p.price), className: 'whitespace-nowrap' },
    { key: 'duration', header: 'Durée', cell: (p) => `${p.duration_days} j` },
    { key: 'gives', header: 'Ce qu’il donne', cell: gives },
    {
      key: 'active',
      header: 'État',
      cell: (p) => <Badge tone={p.active ? 'success' : 'neutral'}>{p.active ? 'Actif' : 'Inactif'}</Badge>,
    },
    { key: 'actions', header: <span className="sr-only">Actions</span>, cell: actions },
  ];

  return (
    <>
      <PageHeader
        title="Plans d'abonnement"
        description="Abonnements vendeur et mises en avant d’annonce proposés aux membres."
        actions={
          <Button leftIcon={<PlusIcon size={16} />} onClick={() => setEditing('new')}>
            Nouveau plan
          </Button>
        }
      />
      <DataTable
        caption="Plans d'abonnement"
        columns={columns}
        rows={rows}
        rowKey={(p) => p.id}
        query={plans}
        testId="plan"
        empty={{ icon: <CardIcon size={26} />, title: 'Aucun plan', description: 'Créez un premier plan.' }}
        card={(p) => (
          <>
            <div className="flex items-start justify-between gap-2">
              <div>
                <p className="font-semibold text-slate-900">{p.name}</p>
                <p className="text-xs text-slate-500">{planKindLabels[p.kind]}</p>
              </div>
              <Badge tone={p.active ? 'success' : 'neutral'}>{p.active ? 'Actif' : 'Inactif'}</Badge>
            </div>
            <p className="mt-1 text-sm text-slate-800">
              {formatPrice(p.price)} · {p.duration_days} j
            </p>
            <p className="text-sm text-slate-600">{gives(p)}</p>
            <div className="mt-3">{actions(p)}</div>
          </>
        )}
      />
      <PlanFormDialog
        open={editing !== null}
        plan={editing === 'new' ? null : editing}
        nextPosition={nextPosition}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Supprimer ce plan ?"
        description={
          deleting
            ? `« ${deleting.name} » sera supprimé. Un plan déjà souscrit ne peut pas l’être : désactivez-le.`
            : undefined
        }
        confirmLabel="Supprimer"
        loading={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (answer) => {
              setDeleting(null);
              void notify.success(answer?.message ?? 'Plan supprimé avec succès');
            },
            onError: (error) => {
              setDeleting(null);
              void notify.error(errorMessage(error, 'Erreur lors de la suppression du plan'));
            },
          })
        }
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

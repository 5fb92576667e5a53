import { type PlanRequest, planRequestSchema } from '@cartable/contracts';
import { planKindLabels, planKinds } from '@cartable/contracts/labels';
import { ApiError, Button, Checkbox, errorMessage, Input, notify, Select, Textarea } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { type Plan, useSavePlan } from './api/subscriptions';

const resolver = zodResolver(planRequestSchema);

interface PlanForm {
  kind: 'member' | 'boost';
  name: string;
  description: string;
  price: string;
  duration_days: string;
  boost_slots: string;
  seller_badge: boolean;
  listings_limit: string;
  active: boolean;
  position: string;
}

const FIELDS = [
  'kind',
  'name',
  'description',
  'price',
  'duration_days',
  'boost_slots',
  'seller_badge',
  'listings_limit',
  'active',
  'position',
] as const;

function toForm(plan: Plan | null, nextPosition: number): PlanForm {
  return {
    kind: plan?.kind ?? 'boost',
    name: plan?.name ?? '',
    description: plan?.description ?? '',
    price: plan ? String(plan.price) : '',
    duration_days: plan ? String(plan.duration_days) : '7',
    boost_slots: plan ? String(plan.boost_slots) : '1',
    seller_badge: plan?.seller_badge ?? false,
    listings_limit: plan?.listings_limit === null || !plan ? '' : String(plan.listings_limit),
    active: plan?.active ?? true,
    position: String(plan?.position ?? nextPosition),
  };
}

/** Create (plan null) or edit a plan, checked by the contract's planRequestSchema. */
export function PlanFormDialog({
  open,
  plan,
  nextPosition,
  onClose,
}: {
  open: boolean;
  plan: Plan | null;
  nextPosition: number;
  onClose: () => void;
}) {
  const formId = useId();
  const save = useSavePlan();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors },
  } = useForm<PlanForm, unknown, PlanRequest>({
    // The form holds strings; the schema coerces them (an empty limit is « illimité »).
    resolver: (values, context, options) =>
      resolver(
        {
          ...values,
          listings_limit: values.listings_limit.trim() === '' ? null : values.listings_limit,
          boost_slots: values.kind === 'boost' ? '1' : values.boost_slots,
        } as never,
        context,
        options as never,
      ) as never,
    defaultValues: toForm(plan, nextPosition),
  });
  useEffect(() => {
    if (open) reset(toForm(plan, nextPosition));
  }, [open, plan, nextPosition, reset]);
  const kind = watch('kind');

  const submit = handleSubmit((body) =>
    save.mutate(
      { id: plan?.id, body },
      {
        onSuccess: (answer) => {
          void notify.success(answer.message ?? (plan ? 'Plan modifié avec succès' : 'Plan créé avec succès'));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError) {
            for (const field of FIELDS) {
              const message = error.fieldError(field);
              if (message) setError(field, { type: 'server', message });
            }
          }
          void notify.error(errorMessage(error, 'Erreur lors de l’enregistrement du plan'));
        },
      },
    ),
  );

  return (
    <Dialog
      open={open}
      onClose={() => (save.isPending ? undefined : onClose())}
      title={plan ? `Modifier « ${plan.name} »` : 'Nouveau plan'}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            {plan ? 'Enregistrer' : 'Créer le plan'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="grid gap-4 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
        <Select label="Type" error={errors.kind?.message} {...register('kind')}>
          {planKinds.map((k) => (
            <option key={k} value={k}>
              {planKindLabels[k]}
            </option>
          ))}
        </Select>
        <Input label="Nom" maxLength={80} error={errors.name?.message} {...register('name')} />
        <Textarea
          label="Description"
          rows={3}
          className="sm:col-span-2"
          error={errors.description?.message}
          {...register('description')}
        />
        <Input label="Prix (FCFA)" inputMode="numeric" error={errors.price?.message} {...register('price')} />
        <Input
          label="Durée (jours)"
          inputMode="numeric"
          error={errors.duration_days?.message}
          {...register('duration_days')}
        />
        {kind === 'member' ? (
          <>
            <Input
              label="Annonces à la une en même temps"
              inputMode="numeric"
              error={errors.boost_slots?.message}
              {...register('boost_slots')}
            />
            <Input
              label="Limite d’annonces en ligne"
              inputMode="numeric"
              hint="Vide pour illimité"
              error={errors.listings_limit?.message}
              {...register('listings_limit')}
            />
            <Checkbox label="Badge vendeur" {...register('seller_badge')} />
          </>
        ) : null}
        <Input
          label="Ordre d’affichage"
          inputMode="numeric"
          error={errors.position?.message}
          {...register('position')}
        />
        <Checkbox label="Proposé aux membres (actif)" {...register('active')} />
      </form>
    </Dialog>
  );
}

import { planKindLabels } from '@cartable/contracts/labels';
import { Badge, CheckCircleIcon, cn, formatPrice, Skeleton } from '@cartable/ui';
import type { ReactNode } from 'react';
import type { Plan } from './api/subscriptions';
import { days, planBenefits } from './labels';

/** A plan side by side with the others: name, price per period, what it gives, the way in. */
export function PlanCard({ plan, action, highlighted }: { plan: Plan; action: ReactNode; highlighted?: boolean }) {
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid="plan-card"
      className={cn(
        'flex h-full flex-col rounded-2xl border bg-white p-5 shadow-sm',
        highlighted ? 'border-primary-600 ring-2 ring-primary-100' : 'border-slate-200',
      )}
    >
      <Badge tone={plan.kind === 'boost' ? 'accent' : 'primary'} className="self-start">
        {planKindLabels[plan.kind]}
      </Badge>
      <h3 id={headingId} className="mt-3 text-lg font-bold text-slate-900">
        {plan.name}
      </h3>
      <p className="mt-1">
        <span className="text-2xl font-extrabold text-primary-800">
          {plan.price === 0 ? 'Gratuit' : formatPrice(plan.price)}
        </span>{' '}
        <span className="text-sm text-slate-600">pour {days(plan.duration_days)}</span>
      </p>
      {plan.description ? <p className="mt-2 text-sm text-slate-700">{plan.description}</p> : null}
      <ul className="mt-4 flex-1 space-y-2 text-sm text-slate-800">
        {planBenefits(plan).map((line) => (
          <li key={line} className="flex gap-2">
            <CheckCircleIcon size={18} className="mt-0.5 shrink-0 text-primary-700" />
            <span>{line}</span>
          </li>
        ))}
      </ul>
      <div className="mt-5">{action}</div>
    </article>
  );
}

/** Same size as a plan card, while the plans load. */
export function PlanCardSkeleton() {
  return (
    <div className="flex h-[22rem] flex-col rounded-2xl border border-slate-200 bg-white p-5" aria-hidden="true">
      <Skeleton className="h-5 w-32" />
      <Skeleton className="mt-3 h-6 w-40" />
      <Skeleton className="mt-2 h-8 w-36" />
      <div className="mt-4 flex-1 space-y-3">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-4 w-4/6" />
      </div>
      <Skeleton className="h-11 w-full" />
    </div>
  );
}

export const PLAN_GRID = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3';

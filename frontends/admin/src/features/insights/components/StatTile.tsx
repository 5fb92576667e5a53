import { cn, Skeleton } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import type { Trend } from '../api/stats';

const whole = new Intl.NumberFormat('fr-FR');
const percent = new Intl.NumberFormat('fr-FR', {
  style: 'percent',
  maximumFractionDigits: 0,
  signDisplay: 'exceptZero',
});

/** « +12 % » against the previous period, or « nouveau » when there was nothing to compare with. */
export function TrendBadge({ trend, against }: { trend: Trend; against: string }) {
  const { current, previous } = trend;
  const tone = current > previous ? 'text-emerald-700' : current < previous ? 'text-red-700' : 'text-slate-500';
  const arrow = current > previous ? '↑' : current < previous ? '↓' : '→';
  const text =
    previous === 0 ? (current === 0 ? 'stable' : 'nouveau') : percent.format((current - previous) / previous);
  return (
    <span className={cn('text-xs font-medium', tone)}>
      <span aria-hidden="true">{arrow} </span>
      {text} <span className="font-normal text-slate-500">{against}</span>
    </span>
  );
}

export interface StatTileProps {
  label: string;
  value: number | undefined;
  /** Under the figure: its trend, a share, a breakdown. */
  detail?: ReactNode;
  /** The screen the figure leads to. */
  to?: string;
  testId: string;
  error?: boolean;
}

/** A figure an operator can act on: it links to the screen where they act. */
export function StatTile({ label, value, detail, to, testId, error }: StatTileProps) {
  const body = (
    <>
      <span className="block text-sm font-medium text-slate-600">{label}</span>
      {error ? (
        <span className="mt-1 block text-sm text-red-700">Indisponible pour le moment</span>
      ) : value === undefined ? (
        <Skeleton className="mt-1 h-8 w-16" />
      ) : (
        <span className="mt-1 block text-3xl font-bold text-slate-900 tabular-nums" data-testid={testId}>
          {whole.format(value)}
        </span>
      )}
      {detail && value !== undefined && !error ? <span className="mt-1 block">{detail}</span> : null}
    </>
  );
  const frame = 'block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-sm';
  return to ? (
    <Link to={to} className={cn(frame, 'transition-colors hover:border-primary-300 focus-visible:border-primary-500')}>
      {body}
    </Link>
  ) : (
    <div className={frame}>{body}</div>
  );
}

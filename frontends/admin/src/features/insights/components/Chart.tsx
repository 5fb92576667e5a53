import { Card, CardBody, CardHeader, CardTitle, Skeleton } from '@cartable/ui';
import { lazy, Suspense } from 'react';
import type { ChartSeries } from './TimeSeriesChart';

const TimeSeriesChart = lazy(() => import('./TimeSeriesChart'));
const dayLabel = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const whole = new Intl.NumberFormat('fr-FR');

export type { ChartSeries };

/**
 * A chart in a card, its height reserved while uPlot loads (nothing jumps). Screen readers get the
 * totals in the label and every figure in the « Voir les chiffres » table.
 */
export function ChartCard({
  title,
  series,
  height = 220,
  loading = false,
  testId,
}: {
  title: string;
  series: ChartSeries[];
  height?: number;
  loading?: boolean;
  testId?: string;
}) {
  const totals = series.map((s) => `${s.label} : ${whole.format(s.data.reduce((sum, p) => sum + p.count, 0))}`);
  const days = series[0]?.data ?? [];
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardBody>
        {loading || days.length === 0 ? (
          <div style={{ height }}>
            <Skeleton className="h-full w-full" />
          </div>
        ) : (
          <>
            <div
              role="img"
              aria-label={`${title}. Totaux sur la période : ${totals.join(', ')}.`}
              style={{ minHeight: height }}
            >
              <Suspense
                fallback={
                  <div style={{ height }}>
                    <Skeleton className="h-full w-full" />
                  </div>
                }
              >
                <TimeSeriesChart series={series} height={height} />
              </Suspense>
            </div>
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer text-primary-700 hover:underline">Voir les chiffres</summary>
              <div className="mt-2 max-h-64 overflow-y-auto">
                <table className="w-full text-left">
                  <caption className="sr-only">{title}</caption>
                  <thead className="text-xs text-slate-500">
                    <tr>
                      <th scope="col" className="py-1 pr-2 font-medium">
                        Jour
                      </th>
                      {series.map((s) => (
                        <th key={s.label} scope="col" className="py-1 pr-2 text-right font-medium">
                          {s.label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {days.map((point, index) => (
                      <tr key={point.day}>
                        <th scope="row" className="py-1 pr-2 font-normal text-slate-600">
                          {dayLabel.format(new Date(`${point.day}T00:00:00Z`))}
                        </th>
                        {series.map((s) => (
                          <td key={s.label} className="py-1 pr-2 text-right tabular-nums">
                            {whole.format(s.data[index]?.count ?? 0)}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </>
        )}
      </CardBody>
    </Card>
  );
}

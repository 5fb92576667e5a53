import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { DailySeries } from '../api/stats';

export interface ChartSeries {
  label: string;
  /** A CSS colour. */
  color: string;
  data: DailySeries;
  kind?: 'bars' | 'line';
}

const dayLabel = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const whole = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
const totalOf = (data: DailySeries) => data.reduce((sum, point) => sum + point.count, 0);

/**
 * Counts per day drawn by uPlot (canvas, about 20 KB compressed; this module is loaded only by the
 * screens that chart). The days of every series are the same (the services fill missing days
 * with 0). The chart follows its container's width.
 */
export default function TimeSeriesChart({ series, height = 220 }: { series: ChartSeries[]; height?: number }) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = host.current;
    if (!element || series.length === 0) return;
    const days = series[0]!.data.map((point) => Date.parse(`${point.day}T00:00:00Z`) / 1000);
    const bars = uPlot.paths.bars?.({ size: [0.7, 24] });
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height,
        // The legend reads each series' total over the period, and a day's count under the cursor.
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        axes: [
          {
            stroke: '#475569',
            grid: { show: false },
            values: (_u, splits) => splits.map((s) => dayLabel.format(new Date(s * 1000))),
          },
          {
            stroke: '#475569',
            grid: { stroke: '#e2e8f0' },
            values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? whole.format(s) : '')),
          },
        ],
        series: [
          {
            label: 'Jour',
            value: (_u, v, _series, idx) =>
              idx == null || v == null ? `${days.length} jours` : dayLabel.format(new Date(v * 1000)),
          },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: s.kind === 'bars' ? 0 : 2,
            fill: s.kind === 'bars' ? s.color : undefined,
            paths: s.kind === 'bars' ? bars : undefined,
            points: { show: false },
            value: (_u: uPlot, v: number | null, _series: number, idx: number | null) =>
              idx == null ? `${whole.format(totalOf(s.data))} au total` : v == null ? '' : whole.format(v),
          })),
        ],
      },
      [days, ...series.map((s) => s.data.map((point) => point.count))],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, height]);

  return <div ref={host} className="w-full" aria-hidden="true" />;
}

import { Card, CardBody, CardHeader, CardTitle, Skeleton } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

const whole = new Intl.NumberFormat('fr-FR');

export interface Ranked {
  id: number;
  name: string;
  count: number;
}

/** A top list with proportional bars; each line may lead to the listings it counts. */
export function RankedList({
  title,
  items,
  to,
  empty,
  testId,
}: {
  title: string;
  items: Ranked[] | undefined;
  to?: (item: Ranked) => string | undefined;
  empty: string;
  testId?: string;
}) {
  const max = Math.max(1, ...(items ?? []).map((item) => item.count));
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardBody>
        {!items ? (
          <div className="space-y-2">
            {[0, 1, 2, 3].map((n) => (
              <Skeleton key={n} className="h-6 w-full" />
            ))}
          </div>
        ) : items.length === 0 ? (
          <p className="text-sm text-slate-500">{empty}</p>
        ) : (
          <ol className="space-y-2">
            {items.map((item) => {
              const href = to?.(item);
              const label = href ? (
                <Link to={href} className="tap-target text-primary-700 hover:underline">
                  {item.name}
                </Link>
              ) : (
                item.name
              );
              return (
                <li key={item.id} className="text-sm">
                  <div className="flex justify-between gap-2">
                    <span className="min-w-0 truncate">{label}</span>
                    <span className="font-semibold tabular-nums">{whole.format(item.count)}</span>
                  </div>
                  <div className="mt-1 h-1.5 rounded-full bg-slate-100" aria-hidden="true">
                    <div
                      className="h-1.5 rounded-full bg-primary-600"
                      style={{ width: `${(item.count / max) * 100}%` }}
                    />
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardBody>
    </Card>
  );
}

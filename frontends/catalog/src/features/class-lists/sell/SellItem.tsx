import { Alert, Badge, Button, CheckCircleIcon, RefreshIcon } from '@cartable/ui';
import { useId } from 'react';
import type { Item, Row } from './publication';
import { SaleFields, saleProblems } from './SaleFields';

/** One book of the list: picked or not, its own sale, its progress and « Réessayer » when it failed. */
export function SellItem({
  item,
  row,
  pickOnly,
  checked,
  locked,
  onChange,
  onRetry,
}: {
  item: Item;
  row: Row;
  /** Sold in the lot: only picked, the lot has the condition and the price. */
  pickOnly: boolean;
  checked: boolean;
  locked: boolean;
  onChange: (patch: Partial<Row>) => void;
  onRetry: () => void;
}) {
  const id = useId();
  const errors = checked && row.selected && row.status !== 'done' && !pickOnly ? saleProblems(row) : {};
  const frozen = locked || row.status === 'sending' || row.status === 'done';

  return (
    <article
      aria-labelledby={`${id}-title`}
      data-testid="sell-item"
      className={`rounded-xl border bg-white p-4 shadow-sm ${row.selected ? 'border-primary-300' : 'border-slate-200'}`}
    >
      <div className="flex items-start gap-3">
        <input
          id={`${id}-pick`}
          type="checkbox"
          checked={row.selected}
          disabled={frozen}
          onChange={(e) => onChange({ selected: e.target.checked })}
          className="mt-3 h-5 w-5 shrink-0 cursor-pointer accent-primary-700"
        />
        <label htmlFor={`${id}-pick`} className="flex min-h-11 min-w-0 flex-1 cursor-pointer flex-col justify-center">
          <span id={`${id}-title`} className="font-semibold text-slate-900">
            {item.title}
          </span>
          <span className="text-sm text-slate-600">
            {[item.subject?.name, item.author, item.publisher].filter(Boolean).join(' · ')}
          </span>
        </label>
        {row.status === 'done' ? (
          <Badge tone="success" className="mt-2 shrink-0">
            <CheckCircleIcon size={12} /> Publiée
          </Badge>
        ) : row.status === 'sending' ? (
          <Badge tone="neutral" className="mt-2 shrink-0">
            Envoi…
          </Badge>
        ) : null}
      </div>

      {row.selected && row.status !== 'done' && !pickOnly ? (
        <SaleFields sale={row} name={item.title} errors={errors} disabled={frozen} onChange={onChange} />
      ) : null}

      {row.status === 'error' && row.error && !pickOnly ? (
        <Alert
          tone="error"
          className="mt-3"
          title="Cette annonce n’a pas été publiée"
          action={
            <Button
              variant="outline"
              size="sm"
              leftIcon={<RefreshIcon size={16} />}
              disabled={locked}
              onClick={onRetry}
            >
              Réessayer<span className="sr-only"> : {item.title}</span>
            </Button>
          }
        >
          <span data-testid="sell-item-error">{row.error}</span>
        </Alert>
      ) : null}
    </article>
  );
}

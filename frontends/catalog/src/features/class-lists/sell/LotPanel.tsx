import { Alert, Input } from '@cartable/ui';
import { type Lot, plural } from './publication';
import { SaleFields } from './SaleFields';

/** The lot's own fields (its title, condition, price and photo) and why it was not published. */
export function LotPanel({
  lot,
  title,
  count,
  errors,
  locked,
  onChange,
}: {
  lot: Lot;
  title: string;
  count: number;
  errors: { condition?: string; price?: string; title?: string; books?: string };
  locked: boolean;
  onChange: (patch: Partial<Lot>) => void;
}) {
  const frozen = locked || lot.status === 'sending';
  return (
    <article aria-labelledby="lot-heading" className="mt-4 rounded-xl border border-primary-300 bg-white p-4 shadow-sm">
      <h2 id="lot-heading" className="font-semibold text-slate-900">
        Le lot {count > 0 ? `(${plural(count, 'manuel')})` : ''}
      </h2>
      {errors.books ? (
        <p className="mt-1 text-sm text-red-700" role="alert" data-invalid="true" tabIndex={-1}>
          {errors.books}
        </p>
      ) : null}
      <Input
        className="mt-3"
        label="Titre de l’annonce *"
        value={title}
        maxLength={200}
        disabled={frozen}
        error={errors.title}
        hint="Proposé d’après les manuels cochés ; vous pouvez le changer."
        onChange={(e) => onChange({ title: e.target.value })}
      />
      <SaleFields
        sale={lot}
        name="le lot"
        errors={errors}
        disabled={frozen}
        photoLabel="Une photo du lot (facultatif)"
        onChange={onChange}
      />
      {lot.status === 'error' && lot.error ? (
        <Alert tone="error" className="mt-3" title="Le lot n’a pas été publié">
          <span data-testid="sell-item-error">{lot.error}</span>
        </Alert>
      ) : null}
    </article>
  );
}

import type { BookCondition } from '@cartable/contracts';
import { bookConditions, conditionLabels } from '@cartable/contracts/labels';
import { Button, buttonClasses, CameraIcon, Checkbox, formatPrice, Input, Select, SwapIcon } from '@cartable/ui';
import { ACCEPTED_TYPES, MAX_IMAGE_BYTES, shrinkPhoto } from '../../../entities/listing/photo';

/** What a family sets for one listing of « Vendre ma liste »: a book alone, or the lot. */
export interface Sale {
  condition: BookCondition | '';
  price: string;
  exchange: boolean;
  photo: File | null;
  preview: string | null;
  photoError: string | null;
}

export const EMPTY_SALE: Sale = {
  condition: '',
  price: '',
  exchange: false,
  photo: null,
  preview: null,
  photoError: null,
};

export const digits = (value: string) => value.replace(/[\s\u202f\u00a0]/g, '');

/** Field problems of a sale, before anything is sent. */
export function saleProblems(sale: Sale): { condition?: string; price?: string } {
  const out: { condition?: string; price?: string } = {};
  if (!sale.condition) out.condition = 'Choisissez l’état';
  const price = digits(sale.price);
  if (price === '') out.price = 'Le prix est obligatoire (0 pour un don)';
  else if (!/^\d+$/.test(price)) out.price = 'Le prix doit être un nombre entier de FCFA';
  return out;
}

/**
 * Condition, price (or a gift), exchange and one photo. `name` completes the accessible names of
 * the controls repeated on the page (« Je le donne : <title> »).
 */
export function SaleFields({
  sale,
  name,
  errors,
  disabled,
  onChange,
  photoLabel = 'Ajouter une photo (facultatif)',
}: {
  sale: Sale;
  name: string;
  errors: { condition?: string; price?: string };
  disabled: boolean;
  onChange: (patch: Partial<Sale>) => void;
  photoLabel?: string;
}) {
  const price = digits(sale.price);

  const pickPhoto = async (file: File | undefined) => {
    if (sale.preview) URL.revokeObjectURL(sale.preview);
    if (!file) return onChange({ photo: null, preview: null, photoError: null });
    if (!ACCEPTED_TYPES.includes(file.type))
      return onChange({ photo: null, preview: null, photoError: 'Formats acceptés : JPEG, PNG ou WebP' });
    const ready = await shrinkPhoto(file);
    if (ready.size > MAX_IMAGE_BYTES)
      return onChange({ photo: null, preview: null, photoError: 'La photo doit peser 5 Mo au plus' });
    onChange({ photo: ready, preview: URL.createObjectURL(ready), photoError: null });
  };

  return (
    <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
      <Select
        label="État *"
        value={sale.condition}
        disabled={disabled}
        error={errors.condition}
        onChange={(e) => onChange({ condition: e.target.value as BookCondition | '' })}
      >
        <option value="">Choisissez l’état</option>
        {bookConditions.map((value) => (
          <option key={value} value={value}>
            {conditionLabels[value]}
          </option>
        ))}
      </Select>
      <div>
        <Input
          label="Prix (FCFA) *"
          inputMode="numeric"
          autoComplete="off"
          value={sale.price}
          disabled={disabled}
          error={errors.price}
          hint={
            /^\d+$/.test(price)
              ? `Affiché : ${formatPrice(Number(price), { zeroLabel: 'Don' })}`
              : 'Mettez 0 pour le donner.'
          }
          trailing={<span className="pr-3 text-sm text-slate-500">FCFA</span>}
          onChange={(e) => onChange({ price: e.target.value })}
        />
        <button
          type="button"
          disabled={disabled}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-ocean-700 underline-offset-2 hover:underline"
          onClick={() => onChange({ price: '0' })}
        >
          Je le donne (0 FCFA)<span className="sr-only"> : {name}</span>
        </button>
      </div>
      <Checkbox
        className="min-h-11 items-center sm:col-span-2"
        label={
          <span className="inline-flex items-center gap-1">
            <SwapIcon size={14} /> Échange possible
          </span>
        }
        checked={sale.exchange}
        disabled={disabled}
        onChange={(e) => onChange({ exchange: e.target.checked })}
      />
      <div className="sm:col-span-2">
        <div className="flex flex-wrap items-center gap-3">
          {sale.preview ? (
            <img src={sale.preview} alt="" width={56} height={56} className="h-14 w-14 rounded object-cover" />
          ) : null}
          <label
            className={`${buttonClasses('outline', 'sm')} cursor-pointer focus-within:ring-2 focus-within:ring-primary-600`}
          >
            <CameraIcon size={16} />
            {sale.photo ? 'Changer la photo' : photoLabel}
            <input
              type="file"
              accept={ACCEPTED_TYPES.join(',')}
              className="sr-only"
              disabled={disabled}
              aria-label={`Photo : ${name}`}
              onChange={(e) => void pickPhoto(e.target.files?.[0])}
            />
          </label>
          {sale.photo ? (
            <Button variant="ghost" size="sm" disabled={disabled} onClick={() => void pickPhoto(undefined)}>
              Retirer la photo
            </Button>
          ) : null}
        </div>
        {sale.photoError ? <p className="mt-1 text-sm text-red-700">{sale.photoError}</p> : null}
      </div>
    </div>
  );
}

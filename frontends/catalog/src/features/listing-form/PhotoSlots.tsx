import { CameraIcon, cn, Spinner, TrashIcon } from '@cartable/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { ACCEPTED_TYPES, bookFormMessages, MAX_IMAGE_BYTES, type PhotoSlot, shrinkPhoto } from './bookForm';

export const EMPTY_SLOT: PhotoSlot = { existing: null, file: null, preview: null, removed: false };

export interface PhotoSlotsProps {
  slots: PhotoSlot[];
  onChange: (slots: PhotoSlot[]) => void;
  /** Errors per slot (server or local), index 0..2. */
  errors: Array<string | undefined>;
  onError: (index: number, message: string | undefined) => void;
  disabled?: boolean;
}

/** Three photo slots with previews: add, replace or remove each one (SPEC section 9: up to 3). */
export function PhotoSlots({ slots, onChange, errors, onError, disabled }: PhotoSlotsProps) {
  const id = useId();
  const [busy, setBusy] = useState<number | null>(null);
  const slotsRef = useRef(slots);
  slotsRef.current = slots;

  // Object URLs live as long as the form.
  useEffect(
    () => () => {
      for (const slot of slotsRef.current) if (slot.preview) URL.revokeObjectURL(slot.preview);
    },
    [],
  );

  const replace = (index: number, next: PhotoSlot) => {
    const list = slotsRef.current;
    const current = list[index];
    if (current?.preview && current.preview !== next.preview) URL.revokeObjectURL(current.preview);
    onChange(list.map((slot, i) => (i === index ? next : slot)));
  };

  const pick = async (index: number, file: File | undefined) => {
    if (!file) return;
    if (!ACCEPTED_TYPES.includes(file.type)) {
      onError(index, bookFormMessages.imageType);
      return;
    }
    setBusy(index);
    const ready = await shrinkPhoto(file);
    setBusy(null);
    if (ready.size > MAX_IMAGE_BYTES) {
      onError(index, bookFormMessages.imageSize);
      return;
    }
    onError(index, undefined);
    const current = slotsRef.current[index] ?? EMPTY_SLOT;
    replace(index, { existing: current.existing, file: ready, preview: URL.createObjectURL(ready), removed: false });
  };

  const remove = (index: number) => {
    const current = slots[index] ?? EMPTY_SLOT;
    onError(index, undefined);
    // A kept image that is removed must be reported to the server (remove_imageN=true).
    replace(index, { existing: current.existing, file: null, preview: null, removed: current.existing !== null });
  };

  return (
    <ul className="grid grid-cols-3 gap-2 sm:gap-4">
      {slots.map((slot, index) => {
        const src = slot.preview ?? (slot.removed ? null : slot.existing);
        const inputId = `${id}-photo-${index}`;
        const errorId = `${inputId}-error`;
        const n = index + 1;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: three fixed slots
          <li key={index} className="min-w-0">
            <input
              id={inputId}
              type="file"
              accept={ACCEPTED_TYPES.join(',')}
              className="peer sr-only"
              aria-label={`Photo ${n}${index === 0 ? ' (principale)' : ''}`}
              aria-describedby={errors[index] ? errorId : undefined}
              aria-invalid={errors[index] ? true : undefined}
              disabled={disabled || busy !== null}
              onChange={(event) => {
                void pick(index, event.target.files?.[0]);
                event.target.value = '';
              }}
            />
            {src ? (
              <div className="relative overflow-hidden rounded-xl border border-slate-200 bg-slate-100 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ocean-500">
                <img src={src} alt={`Aperçu ${n}`} className="aspect-[3/4] w-full object-cover" />
                {index === 0 ? (
                  <span className="absolute top-1.5 left-1.5 rounded-full bg-primary-700 px-2 py-0.5 text-[11px] font-semibold text-white">
                    Principale
                  </span>
                ) : null}
              </div>
            ) : (
              <label
                htmlFor={inputId}
                className={cn(
                  'flex aspect-[3/4] cursor-pointer flex-col items-center justify-center gap-1.5 rounded-xl border-2 border-dashed bg-white p-2 text-center text-xs font-medium text-slate-600 transition-colors hover:border-primary-500 hover:text-primary-800 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ocean-500 sm:text-sm',
                  errors[index] ? 'border-red-400' : 'border-slate-300',
                )}
              >
                {busy === index ? <Spinner size="md" label="Préparation de la photo…" /> : <CameraIcon size={24} />}
                <span>{index === 0 ? 'Photo principale' : `Photo ${n}`}</span>
                <span className="text-[11px] font-normal text-slate-500">Ajouter</span>
              </label>
            )}
            {src ? (
              <div className="mt-1.5 grid gap-1 sm:grid-cols-2">
                <label
                  htmlFor={inputId}
                  className="flex h-9 w-full cursor-pointer items-center justify-center rounded-lg border border-slate-300 max-md:h-11 bg-white px-2 text-xs font-semibold text-slate-800 hover:bg-slate-50"
                >
                  Remplacer<span className="sr-only"> la photo {n}</span>
                </label>
                <button
                  type="button"
                  onClick={() => remove(index)}
                  disabled={disabled}
                  className="flex h-9 w-full items-center justify-center gap-1 rounded-lg border border-red-200 bg-white px-2 text-xs font-semibold text-red-700 hover:bg-red-50"
                >
                  <TrashIcon size={14} /> Retirer<span className="sr-only"> la photo {n}</span>
                </button>
              </div>
            ) : null}
            {errors[index] ? (
              <p id={errorId} className="mt-1 text-xs text-red-700">
                {errors[index]}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

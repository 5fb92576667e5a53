import { Badge, ChevronDownIcon, CloseIcon, cn, Spinner, useDismiss } from '@cartable/ui';
import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { type Category, type CategoryEntry, entriesById, flattenTree, normalise, parentCounts } from './tree';

/** SPEC section 9: 20 px per level, menu at most 300 px tall. */
export const INDENT_PX = 20;
export const MENU_MAX_HEIGHT = 300;
export const SELECTOR_PLACEHOLDER = 'Sélectionner des catégories...';

export interface CategorySelectorProps {
  /** The hierarchy (roots with nested children). */
  categories: Category[];
  value: number[];
  onChange: (ids: number[]) => void;
  label: ReactNode;
  /** Several categories (default) or one. */
  multiple?: boolean;
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Ids that cannot be chosen (e.g. a category and its descendants when picking its parent). */
  exclude?: ReadonlySet<number>;
  /** Adds "Tout sélectionner" (the options matching the search). */
  selectAll?: boolean;
  loading?: boolean;
  disabled?: boolean;
  id?: string;
  className?: string;
  /** Visually hides the label (it stays for assistive technologies). */
  hideLabel?: boolean;
  /** Most categories that can be chosen (multiple mode). */
  max?: number;
  /**
   * For members (catalogue filter, listing form): no "N parents" badge, and a category that
   * hangs under several levels (a subject) reads « Présente dans N niveaux » instead of one of
   * its paths, which suggested that choosing it meant that level only. The SPEC's badge stays
   * in the back office and on /category-test.
   */
  plain?: boolean;
}

/**
 * Category picker (SPEC section 2, "Category hierarchy manager and selector"): an editable
 * combobox with search, the tree indented 20 px per level, each option's full path, a
 * "N parents" badge for categories with several parents, chips and "Tout supprimer".
 */
export function CategorySelector({
  categories,
  value,
  onChange,
  label,
  multiple = true,
  placeholder = SELECTOR_PLACEHOLDER,
  error,
  hint,
  exclude,
  selectAll = false,
  loading = false,
  disabled = false,
  id,
  className,
  hideLabel = false,
  max,
  plain = false,
}: CategorySelectorProps) {
  const autoId = useId();
  const inputId = id ?? `${autoId}-input`;
  const listId = `${autoId}-list`;
  const hintId = `${autoId}-hint`;
  const errorId = `${autoId}-error`;
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const entries = useMemo(() => flattenTree(categories), [categories]);
  const byId = useMemo(() => entriesById(entries), [entries]);
  const counts = useMemo(() => parentCounts(entries), [entries]);
  const selected = useMemo(() => new Set(value), [value]);

  const options = useMemo(() => {
    const term = normalise(search);
    const usable = entries.filter((entry) => !exclude?.has(entry.category.id));
    if (!term) return usable;
    // A category under several parents is listed once in the results (its places share one id).
    const seen = new Set<number>();
    return usable.filter((entry) => {
      if (seen.has(entry.category.id) || !normalise(entry.path.join(' ')).includes(term)) return false;
      seen.add(entry.category.id);
      return true;
    });
  }, [entries, search, exclude]);

  const dismiss = useCallback(() => setOpen(false), []);
  const refs = useMemo(() => [rootRef], []);
  useDismiss(open, refs, dismiss);

  // Keep the active option in range and visible.
  useEffect(() => {
    if (active >= options.length) setActive(Math.max(0, options.length - 1));
  }, [options.length, active]);
  useEffect(() => {
    if (!open) return;
    const node = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    node?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  const choose = (entry: CategoryEntry) => {
    const categoryId = entry.category.id;
    if (multiple) {
      if (selected.has(categoryId)) onChange(value.filter((v) => v !== categoryId));
      else if (max === undefined || value.length < max) onChange([...value, categoryId]);
    } else {
      onChange(selected.has(categoryId) ? [] : [categoryId]);
      setOpen(false);
      setSearch('');
    }
  };

  const remove = (categoryId: number) => {
    onChange(value.filter((v) => v !== categoryId));
    inputRef.current?.focus();
  };

  const clearAll = () => {
    onChange([]);
    setSearch('');
    inputRef.current?.focus();
  };

  const chooseAllVisible = () => {
    const ids = new Set(value);
    for (const entry of options) ids.add(entry.category.id);
    onChange(Array.from(ids).slice(0, max));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        else setActive((i) => Math.min(options.length - 1, i + 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        else setActive((i) => Math.max(0, i - 1));
        break;
      case 'Home':
        if (open) {
          event.preventDefault();
          setActive(0);
        }
        break;
      case 'End':
        if (open) {
          event.preventDefault();
          setActive(Math.max(0, options.length - 1));
        }
        break;
      case 'Enter': {
        if (!open) return;
        event.preventDefault();
        const entry = options[active];
        if (entry) choose(entry);
        break;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          setOpen(false);
        }
        break;
      case 'Backspace':
        if (!search && value.length > 0 && multiple) remove(value[value.length - 1] as number);
        break;
      default:
    }
  };

  const activeId = open && options[active] ? `${autoId}-opt-${active}` : undefined;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const single = !multiple ? byId.get(value[0] ?? -1) : undefined;

  return (
    <div className={cn('relative', className)} ref={rootRef}>
      <label
        htmlFor={inputId}
        className={cn('mb-1.5 block text-sm font-medium text-slate-800', hideLabel && 'sr-only')}
      >
        {label}
      </label>
      <div
        className={cn(
          'flex min-h-11 w-full items-start gap-1 rounded-lg border bg-white py-1.5 pr-1 pl-2 transition-colors focus-within:ring-2',
          error
            ? 'border-red-500 focus-within:ring-red-200'
            : 'border-slate-300 focus-within:border-primary-600 focus-within:ring-primary-100',
          disabled && 'cursor-not-allowed bg-slate-100',
        )}
      >
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-1.5">
          {multiple
            ? value.map((categoryId) => {
                const entry = byId.get(categoryId);
                const name = entry?.category.name ?? `Catégorie ${categoryId}`;
                return (
                  <span
                    key={categoryId}
                    className="inline-flex max-w-full items-center gap-1 rounded-full bg-primary-100 py-0.5 pr-1 pl-2.5 text-sm text-primary-900"
                    title={plain && (counts.get(categoryId) ?? 0) > 1 ? undefined : entry?.path.join(' › ')}
                  >
                    <span className="truncate">{name}</span>
                    <button
                      type="button"
                      onClick={() => remove(categoryId)}
                      disabled={disabled}
                      className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full hover:bg-primary-200"
                      aria-label={`Retirer ${name}`}
                    >
                      <CloseIcon size={14} />
                    </button>
                  </span>
                );
              })
            : null}
          <input
            ref={inputRef}
            id={inputId}
            type="text"
            role="combobox"
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            autoComplete="off"
            disabled={disabled}
            value={search}
            placeholder={
              multiple
                ? value.length
                  ? 'Rechercher…'
                  : placeholder
                : single
                  ? plain && (counts.get(single.category.id) ?? 0) > 1
                    ? single.category.name
                    : single.path.join(' › ')
                  : placeholder
            }
            onChange={(event) => {
              setSearch(event.target.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onKeyDown={onKeyDown}
            className={cn(
              'h-8 min-w-[6rem] flex-1 bg-transparent px-1 text-base text-slate-900 focus:outline-none sm:text-sm',
              !multiple && single ? 'placeholder:text-slate-900' : 'placeholder:text-slate-400',
            )}
          />
        </div>
        {loading ? <Spinner size="sm" label="Chargement des catégories…" className="mt-2 text-primary-700" /> : null}
        {!multiple && value.length > 0 ? (
          <button
            type="button"
            onClick={clearAll}
            disabled={disabled}
            className="flex h-8 w-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100"
            aria-label="Effacer la catégorie"
          >
            <CloseIcon size={16} />
          </button>
        ) : null}
        <button
          type="button"
          tabIndex={-1}
          aria-hidden="true"
          disabled={disabled}
          onClick={() => {
            setOpen((o) => !o);
            inputRef.current?.focus();
          }}
          className="flex h-8 w-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100"
        >
          <ChevronDownIcon size={18} className={cn('transition-transform', open && 'rotate-180')} />
        </button>
      </div>

      {multiple && (value.length > 0 || selectAll) ? (
        <div className="mt-1.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {value.length > 0 ? (
            <span className="text-slate-600">
              {value.length} sélectionnée{value.length > 1 ? 's' : ''}
            </span>
          ) : null}
          {selectAll ? (
            <button
              type="button"
              onClick={chooseAllVisible}
              disabled={disabled || options.length === 0}
              className="font-medium text-primary-700 underline-offset-2 hover:underline disabled:opacity-50"
            >
              Tout sélectionner{search ? ' (résultats)' : ''}
            </button>
          ) : null}
          {value.length > 0 ? (
            <button
              type="button"
              onClick={clearAll}
              disabled={disabled}
              className="font-medium text-red-700 underline-offset-2 hover:underline"
            >
              Tout supprimer
            </button>
          ) : null}
        </div>
      ) : null}

      {hint && !error ? (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-700">
          {error}
        </p>
      ) : null}

      <div
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label="Suggestions de catégories"
        aria-multiselectable={multiple || undefined}
        hidden={!open}
        style={{ maxHeight: MENU_MAX_HEIGHT }}
        className="absolute right-0 left-0 z-30 mt-1 overflow-y-auto overscroll-contain rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {open && options.length === 0 ? (
          <p className="px-3 py-2 text-sm text-slate-500">
            {loading ? 'Chargement…' : search ? `Aucune catégorie ne correspond à « ${search} »` : 'Aucune catégorie'}
          </p>
        ) : null}
        {open
          ? options.map((entry, index) => {
              const isSelected = selected.has(entry.category.id);
              const full = multiple && max !== undefined && value.length >= max && !isSelected;
              const parents = counts.get(entry.category.id) ?? 0;
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard (aria-activedescendant)
                <div
                  key={entry.key}
                  tabIndex={-1}
                  id={`${autoId}-opt-${index}`}
                  data-index={index}
                  role="option"
                  aria-selected={isSelected}
                  aria-disabled={full || undefined}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(entry)}
                  onMouseMove={() => setActive(index)}
                  style={{ paddingLeft: 12 + entry.level * INDENT_PX }}
                  className={cn(
                    'flex cursor-pointer items-start gap-2 py-2 pr-3 text-sm',
                    full && 'cursor-not-allowed opacity-50',
                    index === active ? 'bg-primary-50' : '',
                    isSelected ? 'font-semibold text-primary-900' : 'text-slate-800',
                  )}
                >
                  {multiple ? (
                    <span
                      aria-hidden="true"
                      className={cn(
                        'mt-0.5 flex h-4 w-4 shrink-0 items-center justify-center rounded border text-[10px] leading-none',
                        isSelected ? 'border-primary-700 bg-primary-700 text-white' : 'border-slate-400 bg-white',
                      )}
                    >
                      {isSelected ? '✓' : ''}
                    </span>
                  ) : null}
                  <span className="min-w-0 flex-1">
                    <span className="block">{entry.category.name}</span>
                    {entry.level > 0 ? (
                      <span className="block truncate text-xs font-normal text-slate-500">
                        {plain && parents > 1
                          ? `Présente dans ${parents} niveaux`
                          : entry.path.slice(0, -1).join(' › ')}
                      </span>
                    ) : null}
                  </span>
                  {parents > 1 && !plain ? (
                    <Badge tone="ocean" className="shrink-0">
                      {parents} parents
                    </Badge>
                  ) : null}
                </div>
              );
            })
          : null}
      </div>
    </div>
  );
}

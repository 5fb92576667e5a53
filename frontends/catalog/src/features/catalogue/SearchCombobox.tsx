import type { BookSuggestion } from '@cartable/contracts';
import { SEARCH_TEXT_MAX_LENGTH } from '@cartable/contracts/limits';
import { cn, SearchIcon } from '@cartable/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { suggestionsQuery } from './api/search';

const KIND_LABELS: Record<BookSuggestion['kind'], string> = {
  filter: 'Niveau et matière',
  level: 'Niveau',
  subject: 'Matière',
  title: 'Titre',
};

/** Waits for typing to pause before asking for suggestions. */
const SUGGEST_AFTER_MS = 200;

/** The label with the parts that match what was typed in <mark>. */
function Highlighted({ label, ranges }: { label: string; ranges: Array<[number, number]> }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start) continue;
    if (start > at) parts.push(label.slice(at, start));
    parts.push(
      <mark key={start} className="rounded-sm bg-amber-100 px-0 font-semibold text-slate-900">
        {label.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < label.length) parts.push(label.slice(at));
  return <>{parts}</>;
}

export interface SearchComboboxProps {
  value: string;
  onChange: (text: string) => void;
  /** A suggestion was chosen: search its query. */
  onChoose: (suggestion: BookSuggestion) => void;
  label: string;
  placeholder?: string;
  className?: string;
  inputClassName?: string;
  /** The id of a message about the text (a search too long): read with the field, which is then invalid. */
  describedBy?: string | undefined;
}

/**
 * The search box with suggestions (WAI-ARIA combobox with a list box): ↓ and ↑ move through
 * them (the input keeps the focus, aria-activedescendant names the active one), Entrée picks the
 * active one (or submits the form when none is), Échap closes the list. Suggestions are asked
 * for 200 ms after typing pauses.
 */
export function SearchCombobox({
  value,
  onChange,
  onChoose,
  label,
  placeholder,
  className,
  inputClassName,
  describedBy,
}: SearchComboboxProps) {
  const id = useId();
  const listId = `${id}-suggestions`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [debounced] = useDebounce(value.trim(), SUGGEST_AFTER_MS);

  const suggestions = useQuery({ ...suggestionsQuery(debounced), placeholderData: keepPreviousData });
  const items = debounced && value.trim() ? (suggestions.data ?? []) : [];
  const expanded = open && items.length > 0;
  // A new list: nothing active until the arrows say so.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the list changes
  useEffect(() => setActive(-1), [suggestions.data]);

  const choose = (suggestion: BookSuggestion) => {
    setOpen(false);
    setActive(-1);
    onChoose(suggestion);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!items.length) return;
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        setActive(event.key === 'ArrowDown' ? 0 : items.length - 1);
        return;
      }
      const n = items.length;
      const down = event.key === 'ArrowDown';
      setActive((current) => (down ? (current + 1) % n : current <= 0 ? n - 1 : current - 1));
    } else if (event.key === 'Enter') {
      if (expanded && active >= 0 && items[active]) {
        event.preventDefault();
        choose(items[active]);
      } else setOpen(false);
    } else if (event.key === 'Escape') {
      // Closes the suggestions; never the browser's own « clear the search field » on Escape.
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const activeItem = expanded && active >= 0 && active < items.length ? `${id}-option-${active}` : undefined;

  return (
    <div className={cn('relative', className)}>
      <label htmlFor={`${id}-input`} className="sr-only">
        {label}
      </label>
      <SearchIcon size={18} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400" />
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        enterKeyHint="search"
        autoComplete="off"
        spellCheck={false}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={activeItem}
        aria-describedby={describedBy}
        aria-invalid={describedBy ? true : undefined}
        maxLength={SEARCH_TEXT_MAX_LENGTH}
        value={value}
        onChange={(event) => {
          onChange(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        className={inputClassName}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!expanded}
        className="absolute top-full right-0 left-0 z-30 mt-1 max-h-[min(22rem,60vh)] overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {items.map((item, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works from the input (aria-activedescendant)
          <div
            key={`${item.kind}:${item.label}`}
            id={`${id}-option-${index}`}
            role="option"
            tabIndex={-1}
            aria-selected={index === active}
            // The input keeps the focus (and the list stays open) while the pointer picks.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(item)}
            onMouseMove={() => setActive(index)}
            className={cn(
              'flex min-h-11 cursor-pointer flex-col justify-center px-3 py-2 text-sm text-slate-800',
              index === active && 'bg-primary-50',
            )}
          >
            {/* The whole label, on two lines at most: a phone's width cuts titles otherwise. */}
            <span className="line-clamp-2 break-words">
              <Highlighted label={item.label} ranges={item.highlights} />
            </span>
            <span className="text-xs text-slate-500">{KIND_LABELS[item.kind]}</span>
          </div>
        ))}
      </div>
      <p className="sr-only" aria-live="polite">
        {expanded ? `${items.length} suggestion${items.length > 1 ? 's' : ''}, flèches haut et bas pour choisir` : ''}
      </p>
    </div>
  );
}

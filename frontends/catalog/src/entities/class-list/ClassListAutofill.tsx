import type { ClassListItemSuggestion } from '@cartable/contracts';
import { BookIcon, SearchIcon, Spinner } from '@cartable/ui';
import { type KeyboardEvent, useId, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { useClassListItemSearch } from './api/item-search';

const MIN_CHARS = 2;
const DEBOUNCE_MS = 250;

/**
 * « Choisir dans les listes de classe »: a combobox over the books of the
 * published class lists; choosing one fills title, author, publisher, ISBN, year, level and
 * subject. The seller can still change every field afterwards.
 */
export function ClassListAutofill({
  onChoose,
  label = 'Choisir dans les listes de classe',
  hint = 'Tapez le titre, l’auteur ou l’ISBN : titre, auteur, éditeur, ISBN, classe et matière se remplissent. Vous pourrez tout modifier.',
  disabled = false,
}: {
  onChoose: (suggestion: ClassListItemSuggestion) => void;
  label?: string;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [q] = useDebounce(text.trim(), DEBOUNCE_MS);
  const enabled = q.length >= MIN_CHARS;
  const search = useClassListItemSearch(q, enabled);
  const options = enabled ? (search.data ?? []) : [];
  const expanded = open && enabled && (options.length > 0 || !search.isFetching);
  const listId = `${id}-list`;

  const choose = (suggestion: ClassListItemSuggestion) => {
    onChoose(suggestion);
    setText('');
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (options.length ? (i + 1) % options.length : -1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (options.length ? (i <= 0 ? options.length - 1 : i - 1) : -1));
    } else if (event.key === 'Enter' && expanded && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  return (
    <div className="rounded-lg border border-ocean-200 bg-ocean-50 p-3" data-testid="class-list-autofill">
      <label htmlFor={`${id}-input`} className="block text-sm font-semibold text-ocean-900">
        {label}
      </label>
      <p id={`${id}-hint`} className="text-xs text-ocean-900">
        {hint}
      </p>
      <div className="relative mt-2">
        <SearchIcon size={18} className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400" />
        <input
          id={`${id}-input`}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-describedby={`${id}-hint`}
          aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
          value={text}
          disabled={disabled}
          placeholder="Ex. : CIAM 6e"
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
          className="block h-11 w-full rounded-lg border border-slate-300 bg-white pr-10 pl-10 text-base text-slate-900 placeholder:text-slate-400 focus:border-primary-600 focus:ring-2 focus:ring-primary-100 focus:outline-none sm:text-sm"
        />
        {search.isFetching && enabled ? (
          <span className="absolute top-1/2 right-3 -translate-y-1/2">
            <Spinner size="sm" label="Recherche…" />
          </span>
        ) : null}
        <div
          id={listId}
          role="listbox"
          aria-label="Manuels des listes de classe"
          hidden={!expanded}
          className="absolute z-20 mt-1 max-h-72 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {options.length === 0 ? (
            <div
              role="option"
              tabIndex={-1}
              aria-selected={false}
              aria-disabled="true"
              className="px-3 py-2 text-sm text-slate-600"
            >
              {search.isError ? 'La recherche n’a pas abouti. Réessayez.' : 'Aucun manuel de liste ne correspond.'}
            </div>
          ) : (
            options.map((s, index) => (
              <div
                key={`${s.title}-${s.isbn ?? ''}-${s.level.id}`}
                id={`${id}-opt-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                // mousedown: before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(s);
                }}
                className={`flex min-h-11 cursor-pointer items-start gap-2 px-3 py-2 text-sm ${index === active ? 'bg-primary-50' : 'hover:bg-slate-50'}`}
              >
                <BookIcon size={16} className="mt-0.5 shrink-0 text-primary-600" />
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{s.title}</span>
                  <span className="block text-xs text-slate-600">
                    {[s.level.name, s.subject?.name, s.author, s.publisher].filter(Boolean).join(' · ')}
                  </span>
                </span>
              </div>
            ))
          )}
        </div>
      </div>
    </div>
  );
}

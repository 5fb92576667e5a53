import { Button, cn, SearchIcon } from '@cartable/ui';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { CataloguePage } from './api/search';
import { type CatalogueFilters, SORT_OPTIONS, type SortDirection, type SortField, searchTextProblem } from './filters';
import { SearchCombobox } from './SearchCombobox';

/** What /books searches with: the text box, what the search understood, the sort. */

/** Text search: applied on submit, on a chosen suggestion, or 600 ms after typing stops. */
export function SearchBar({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  // A text the catalogue would refuse is said here and never sent.
  const problem = searchTextProblem(text);
  const problemId = useId();

  // The latest callback: a filter changed meanwhile (a town picked) must not be undone by the timer.
  const search = useRef(onSearch);
  search.current = onSearch;
  // Debounce on the typed text; a search already applied (Enter, a suggestion) cancels the timer.
  useEffect(() => {
    if (text.trim() === value || searchTextProblem(text)) return;
    const timer = window.setTimeout(() => search.current(text.trim()), 600);
    return () => window.clearTimeout(timer);
  }, [text, value]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== value && !problem) onSearch(text.trim());
  };

  return (
    <search>
      <form onSubmit={submit} className="flex gap-2">
        <SearchCombobox
          className="flex-1"
          label="Rechercher un manuel"
          value={text}
          onChange={setText}
          onChoose={(suggestion) => {
            setText(suggestion.query);
            onSearch(suggestion.query);
          }}
          placeholder="Ex. : maths 6e, svt 3e, anglais CM2"
          describedBy={problem ? problemId : undefined}
          inputClassName="block h-12 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-10 text-base text-slate-900 placeholder:text-slate-400 focus:border-primary-600 focus:ring-2 focus:ring-primary-100 focus:outline-none"
        />
        <Button type="submit" size="lg" className="px-4 sm:px-6" aria-label="Rechercher">
          <SearchIcon size={18} className="sm:hidden" />
          <span className="hidden sm:inline">Rechercher</span>
        </Button>
      </form>
      {problem ? (
        <p id={problemId} role="alert" className="mt-1 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
    </search>
  );
}

/**
 * What the search understood (« Résultats pour Mathématiques · 6e ») with a way to search the
 * words as typed instead, or, after that, to read them again as a level and a subject.
 */
export function Understood({
  page,
  filters,
  onChange,
}: {
  page: CataloguePage | undefined;
  filters: CatalogueFilters;
  onChange: (patch: Partial<CatalogueFilters>) => void;
}) {
  if (!filters.query) return null;
  const understood = page?.interpreted;
  if (filters.literal) {
    return (
      <p className="mt-3 text-sm text-slate-700">
        Recherche exacte de « {filters.query} ».{' '}
        <button
          type="button"
          onClick={() => onChange({ literal: false })}
          className="inline text-left font-semibold text-primary-800 underline underline-offset-2"
        >
          Reconnaître le niveau et la matière
        </button>
      </p>
    );
  }
  if (!understood) return null;
  const terms = [understood.subject?.name, understood.level?.name].filter(Boolean).join(' · ');
  return (
    <p className="mt-3 text-sm text-slate-700" data-testid="understood">
      Résultats pour <strong className="font-semibold text-slate-900">{terms}</strong>
      {understood.text ? <> et « {understood.text} »</> : null}.{' '}
      <button
        type="button"
        onClick={() => onChange({ literal: true })}
        className="inline text-left font-semibold text-primary-800 underline underline-offset-2"
      >
        Chercher plutôt « {filters.query} » tel quel
      </button>
    </p>
  );
}

export function SortSelect({
  filters,
  onChange,
  className,
}: {
  filters: CatalogueFilters;
  onChange: (patch: Partial<CatalogueFilters>) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('flex items-center gap-2', className)}>
      <label htmlFor={id} className="sr-only whitespace-nowrap sm:not-sr-only sm:text-sm sm:text-slate-600">
        Trier par
      </label>
      <select
        id={id}
        value={`${filters.sort_by}:${filters.sort_direction}`}
        onChange={(event) => {
          const [sortBy, direction] = event.target.value.split(':') as [SortField, SortDirection];
          onChange({ sort_by: sortBy, sort_direction: direction });
        }}
        className="h-9 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-800 focus:border-primary-600 focus:ring-2 focus:ring-primary-100 focus:outline-none"
      >
        {SORT_OPTIONS.filter((option) => filters.query || option.value !== 'relevance:desc').map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

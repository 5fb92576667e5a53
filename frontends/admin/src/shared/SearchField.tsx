import { Input, type InputProps, SearchIcon } from '@cartable/ui';
import { useEffect, useRef, useState } from 'react';

/**
 * A list's search box. What is typed is sent 300 ms after the last key (`onSearch`, null when
 * empty); a search changed elsewhere (Back, « Effacer les filtres ») shows in the field, while what
 * is being typed (a trailing space included) is left alone: the search this field sent itself comes
 * back through `value` a render later, when the member may already be typing the next one.
 */
export function SearchField({
  value,
  onSearch,
  ...input
}: { value: string; onSearch: (search: string | null) => void } & Omit<InputProps, 'value' | 'onChange' | 'type'>) {
  const [term, setTerm] = useState(value);
  const sent = useRef(value);

  // biome-ignore lint/correctness/useExhaustiveDependencies: debounced on the typed text only
  useEffect(() => {
    if (term.trim() === value) return;
    const timer = window.setTimeout(() => {
      sent.current = term.trim();
      onSearch(sent.current || null);
    }, 300);
    return () => window.clearTimeout(timer);
  }, [term]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the search, not each key
  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    if (term.trim() !== value) setTerm(value);
  }, [value]);

  return (
    <Input
      type="search"
      value={term}
      onChange={(event) => setTerm(event.target.value)}
      trailing={<SearchIcon size={18} className="mr-2 text-slate-400" />}
      {...input}
    />
  );
}

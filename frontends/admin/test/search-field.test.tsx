import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchField } from '../src/shared/SearchField';

/**
 * The back office's search box against a parent that, like the router, hands the sent search back
 * through `value` some time later: what the member typed meanwhile must stay, and a search changed
 * elsewhere (Back, « Effacer les filtres ») must show.
 */
let changeElsewhere: (search: string) => void = () => {};

function SlowRouter({ delay }: { delay: number }) {
  const [value, setValue] = useState('');
  changeElsewhere = setValue;
  return (
    <>
      <SearchField
        label="Rechercher"
        value={value}
        onSearch={(search) => window.setTimeout(() => setValue(search ?? ''), delay)}
      />
      <output data-testid="url">{value}</output>
    </>
  );
}

const field = () => screen.getByLabelText('Rechercher') as HTMLInputElement;
const type = (text: string) =>
  act(() => {
    // React listens to the native setter's input event, as a keyboard would fire it.
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field(), text);
    field().dispatchEvent(new Event('input', { bubbles: true }));
  });
const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the back office’s search box', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps what is typed while its previous search comes back', async () => {
    render(<SlowRouter delay={200} />);
    type('Nzeng Village');
    await wait(300); // sent; the URL follows 200 ms later
    type('Libreville');
    await wait(200); // the previous search lands while « Libreville » waits for its pause
    expect(field().value).toBe('Libreville');
    await wait(600);
    expect(screen.getByTestId('url').textContent).toBe('Libreville');
    expect(field().value).toBe('Libreville');
  });

  it('shows a search changed elsewhere', async () => {
    render(<SlowRouter delay={0} />);
    type('Franceville');
    await wait(400);
    act(() => changeElsewhere(''));
    expect(field().value).toBe('');
    act(() => changeElsewhere('Oyem'));
    expect(field().value).toBe('Oyem');
  });
});

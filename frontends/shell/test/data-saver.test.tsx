import { setDataPrice, setDataSaver } from '@cartable/ui';
import { member, renderScreen } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DataSaverCard } from '../src/features/account/profile/DataSaverCard';

/** « Économie de données » in the profile: kept on the phone, said to the gateway by a cookie. */
afterEach(() => {
  setDataSaver('auto');
  setDataPrice(null);
});

describe('data saver', () => {
  it('turns on for this phone and tells the gateway, then follows the browser again', async () => {
    renderScreen(<DataSaverCard />, { as: member() });
    const choice = screen.getByLabelText('Économie de données') as HTMLSelectElement;
    expect(choice.value).toBe('auto');
    expect(screen.getByText('Désactivée en ce moment.')).toBeTruthy();
    await userEvent.selectOptions(choice, 'on');
    expect(screen.getByText('Activée en ce moment.')).toBeTruthy();
    expect(localStorage.getItem('cartable.data-saver')).toBe('on');
    expect(document.cookie).toContain('cartable_data_saver=1');
    await userEvent.selectOptions(choice, 'auto');
    expect(localStorage.getItem('cartable.data-saver')).toBeNull();
    expect(document.cookie).not.toContain('cartable_data_saver=1');
  });

  it('counts at the member’s price of a gigabyte, and refuses one that is not a whole number of FCFA', async () => {
    localStorage.setItem('cartable.data-used', JSON.stringify({ month: currentMonth(), bytes: 512 * 1024 * 1024 }));
    renderScreen(<DataSaverCard />, { as: member() });
    // Half a gigabyte at the default 2 607 FCFA.
    expect(screen.getByTestId('month-data-cost').textContent).toMatch(/512 Mo.*environ 1\s?303,5 FCFA/);
    const price = screen.getByLabelText('Prix d’un Go de données (FCFA)');
    await userEvent.clear(price);
    await userEvent.type(price, '2,5{Enter}');
    expect(screen.getByText('Indiquez un prix entier entre 1 et 100 000 FCFA.')).toBeTruthy();
    await userEvent.clear(price);
    await userEvent.type(price, '4000{Enter}');
    expect(screen.getByTestId('month-data-cost').textContent).toMatch(/environ 2\s?000 FCFA/);
  });
});

function currentMonth() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

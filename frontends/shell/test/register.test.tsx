import { apiPath, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import RegisterPage from '../src/features/auth/pages/RegisterPage';

/** /register: SPEC section 5's rules and messages, live after a first submission. */
const GABON = { id: 266, nom_fr_fr: 'Gabon', alpha2: 'GA' };
const LIBREVILLE = { id: 1, name: 'Libreville', province: 'Estuaire', is_major: true, country_id: 266 };

/** The passwords auth's big list holds, as POST /password-check answers for them. */
const BIG_LIST = new Set(['sunshine12']);
const checked: string[] = [];

beforeEach(() => {
  checked.length = 0;
  server.use(
    http.post(apiPath('/password-check'), async ({ request }) => {
      const { password } = (await request.json()) as { password: string };
      checked.push(password);
      return HttpResponse.json({ common: BIG_LIST.has(password.toLowerCase()) });
    }),
    http.get(apiPath('/locations/countries'), () => HttpResponse.json({ countries: [GABON] })),
    http.get(apiPath('/locations/cities'), () => HttpResponse.json({ cities: [LIBREVILLE] })),
  );
});

function open() {
  renderScreen(<RegisterPage />, { at: '/register', path: '/register' });
  return within(screen.getByRole('form', { name: 'Inscription' }));
}

describe('register form', () => {
  it('names every missing field in French', async () => {
    const form = open();
    await userEvent.click(form.getByRole('button', { name: 'Créer mon compte' }));
    for (const message of [
      'Le nom est obligatoire',
      'Le pseudonyme est obligatoire',
      "L'email est obligatoire",
      'Le mot de passe est requis',
    ]) {
      expect(await form.findByText(message)).toBeTruthy();
    }
  });

  it('refuses a short or reserved name, a malformed pseudonym and passwords that differ, live after the first try', async () => {
    const form = open();
    await userEvent.click(form.getByRole('button', { name: 'Créer mon compte' }));
    await form.findByText('Le nom est obligatoire');
    const name = form.getByLabelText('Nom complet');
    await userEvent.type(name, 'A');
    expect(await form.findByText('Le nom doit contenir au moins 2 caractères')).toBeTruthy();
    await userEvent.clear(name);
    await userEvent.type(name, 'admin');
    expect(await form.findByText('Ce nom contient un mot réservé, veuillez en choisir un autre')).toBeTruthy();
    const username = form.getByLabelText('Pseudonyme');
    await userEvent.type(username, 'ab');
    expect(await form.findByText('Le pseudonyme doit contenir au moins 3 caractères')).toBeTruthy();
    await userEvent.clear(username);
    await userEvent.type(username, 'awa nze');
    expect(
      await form.findByText('Le pseudonyme doit contenir uniquement des lettres, chiffres et underscore'),
    ).toBeTruthy();
    await userEvent.clear(username);
    await userEvent.type(username, 'a'.repeat(21));
    expect(await form.findByText('Le pseudonyme ne peut pas dépasser 20 caractères')).toBeTruthy();
    await userEvent.type(form.getByLabelText('Adresse email'), 'awa@');
    expect(await form.findByText("Format d'email invalide")).toBeTruthy();
    await userEvent.type(form.getByLabelText('Mot de passe', { exact: true }), 'Cartable1a');
    await userEvent.type(form.getByLabelText('Confirmer le mot de passe'), 'Cartable1b');
    expect(await form.findByText('Les mots de passe ne correspondent pas')).toBeTruthy();
  });

  it('asks for the town of the chosen country', async () => {
    const form = open();
    await form.findByRole('option', { name: 'Gabon' });
    await userEvent.click(form.getByRole('button', { name: 'Créer mon compte' }));
    expect(await form.findByText('La ville est obligatoire')).toBeTruthy();
  });
});

describe('the strength meter', () => {
  it('says « Trop courant » at once for a French favourite the server would refuse, never « Excellent »', async () => {
    const form = open();
    await userEvent.type(form.getByLabelText('Mot de passe', { exact: true }), 'Libreville2026');
    const meter = form.getByTestId('password-strength');
    expect(within(meter).getByText('Trop courant')).toBeTruthy();
    expect(within(meter).queryByText('Excellent')).toBeNull();
    expect(within(meter).getByTestId('password-common').textContent).toContain('trop courant');
    // Known here: the server was not asked.
    expect(checked).toEqual([]);
  });

  it('asks the server about its big list once typing pauses, and only then', async () => {
    const form = open();
    await userEvent.type(form.getByLabelText('Mot de passe', { exact: true }), 'Sunshine12');
    const meter = form.getByTestId('password-strength');
    expect(await within(meter).findByText('Trop courant')).toBeTruthy();
    expect(checked).toEqual(['Sunshine12']);

    await userEvent.clear(form.getByLabelText('Mot de passe', { exact: true }));
    await userEvent.type(form.getByLabelText('Mot de passe', { exact: true }), 'Mvengue-Okoume7');
    // The meter is drawn again for the new password.
    const again = form.getByTestId('password-strength');
    expect(await within(again).findByText('Excellent')).toBeTruthy();
    expect(within(again).queryByTestId('password-common')).toBeNull();
    await waitFor(() => expect(checked).toEqual(['Sunshine12', 'Mvengue-Okoume7']));
    expect(within(again).getByText('Excellent')).toBeTruthy();
  });
});

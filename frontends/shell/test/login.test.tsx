import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import LoginPage from '../src/features/auth/pages/LoginPage';

/** /login: the rules and French messages of each step (SPEC section 5), and the answers of POST /login. */
function open() {
  return renderScreen(<LoginPage />, { at: '/login', path: '/login' });
}

describe('login form', () => {
  it('says which field is missing, in French, and asks nothing of the server', async () => {
    let asked = 0;
    server.use(
      http.post(apiPath('/login'), () => {
        asked++;
        return HttpResponse.json({});
      }),
    );
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText("L'email est obligatoire")).toBeTruthy();
    expect(screen.getByText('Le mot de passe est obligatoire')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Adresse email'), 'awa@exemple');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText("Format d'email invalide")).toBeTruthy();
    expect(asked).toBe(0);
  });

  it('goes on to the code step, keeps its digits only and asks for six', async () => {
    server.use(
      http.post(apiPath('/login'), () =>
        HttpResponse.json({
          two_factor_required: true,
          code_sent: true,
          message: 'Code envoyé',
          email: 'awa@exemple.ga',
        }),
      ),
    );
    open();
    await userEvent.type(screen.getByLabelText('Adresse email'), 'awa@exemple.ga');
    await userEvent.type(screen.getByLabelText('Mot de passe', { exact: true }), 'Cartable2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    const code = (await screen.findByLabelText(/Code de vérification/)) as HTMLInputElement;
    await userEvent.type(code, '12a3');
    expect(code.value).toBe('123');
    await userEvent.click(screen.getByRole('button', { name: /Vérifier|Se connecter/ }));
    expect(await screen.findByText('Code de vérification requis (6 chiffres)')).toBeTruthy();
  });

  it('shows the server’s message for refused credentials', async () => {
    server.use(http.post(apiPath('/login'), () => errorAnswer(401, 'Identifiants incorrects.')));
    open();
    await userEvent.type(screen.getByLabelText('Adresse email'), 'awa@exemple.ga');
    await userEvent.type(screen.getByLabelText('Mot de passe', { exact: true }), 'mauvais');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Identifiants incorrects.')).toBeTruthy();
  });

  it('signs a verified member in and leaves for the dashboard, which greets them: no toast there', async () => {
    const awa = member();
    server.use(
      http.post(apiPath('/login'), () =>
        HttpResponse.json({
          access_token: 'jeton',
          token_type: 'Bearer',
          expires_in: 3600,
          user: awa,
          two_factor_required: false,
        }),
      ),
      http.post(apiPath('/favourites/merge'), () => HttpResponse.json({ message: 'ok', book_ids: [] })),
    );
    open();
    await userEvent.type(screen.getByLabelText('Adresse email'), awa.email);
    await userEvent.type(screen.getByLabelText('Mot de passe', { exact: true }), 'Cartable2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    await waitFor(() => expect(screen.getByText('Autre page')).toBeTruthy());
    expect(localStorage.getItem('token')).toBe('jeton');
    // A toast loads its outlet first: once the outlet is there, one asked for would show.
    await screen.findByRole('region', { name: /^Notifications/ });
    expect(screen.queryByText('Connexion réussie !')).toBeNull();
  });

  it('says the login went through when it leads back to the page the member came from', async () => {
    const awa = member();
    server.use(
      http.post(apiPath('/login'), () =>
        HttpResponse.json({
          access_token: 'jeton',
          token_type: 'Bearer',
          expires_in: 3600,
          user: awa,
          two_factor_required: false,
        }),
      ),
      http.post(apiPath('/favourites/merge'), () => HttpResponse.json({ message: 'ok', book_ids: [] })),
    );
    renderScreen(<LoginPage />, { at: '/login?return_url=%2Fbooks%2F3', path: '/login' });
    await userEvent.type(screen.getByLabelText('Adresse email'), awa.email);
    await userEvent.type(screen.getByLabelText('Mot de passe', { exact: true }), 'Cartable2026!');
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    expect(await screen.findByText('Connexion réussie !')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Autre page')).toBeTruthy());
  });
});

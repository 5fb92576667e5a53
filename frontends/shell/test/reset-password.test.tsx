import { apiPath, errorAnswer, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import ResetPasswordPage from '../src/features/auth/pages/ResetPasswordPage';

/** /reset-password: the link is checked first, then SPEC section 5's rules, meter and messages. */
const LINK = '/reset-password?token=abc&email=awa%40exemple.ga';

function validLink() {
  server.use(
    http.post(apiPath('/validate-reset-token'), () => HttpResponse.json({ valid: true, email: 'awa@exemple.ga' })),
  );
}

describe('reset password form', () => {
  it('shows the invalid-link screen without a token, with a way to ask for a new link', async () => {
    renderScreen(<ResetPasswordPage />, { at: '/reset-password', path: '/reset-password' });
    expect(await screen.findByText(/Ce lien de réinitialisation est invalide ou a expiré/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Demander un nouveau lien' })).toBeTruthy();
  });

  it('shows the invalid-link screen when the check fails', async () => {
    server.use(http.post(apiPath('/validate-reset-token'), () => errorAnswer(400, 'Lien invalide')));
    renderScreen(<ResetPasswordPage />, { at: LINK, path: '/reset-password' });
    expect(await screen.findByText(/Ce lien de réinitialisation est invalide ou a expiré/)).toBeTruthy();
  });

  it('rates the password and keeps the button off below « Moyen »', async () => {
    validLink();
    renderScreen(<ResetPasswordPage />, { at: LINK, path: '/reset-password' });
    const password = await screen.findByLabelText('Nouveau mot de passe');
    const submit = screen.getByRole('button', { name: /Réinitialiser/ }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await userEvent.type(password, 'abc');
    expect(screen.getByText('Faible')).toBeTruthy();
    expect(submit.disabled).toBe(true);
    await userEvent.type(password, 'defgh');
    expect(screen.getByText('Moyen')).toBeTruthy();
    expect(submit.disabled).toBe(false);
    await userEvent.clear(password);
    await userEvent.type(password, 'Cartable2026!x');
    expect(screen.getByText('Excellent')).toBeTruthy();
  });

  it('asks for upper case, lower case and a digit, and for an equal confirmation', async () => {
    validLink();
    renderScreen(<ResetPasswordPage />, { at: LINK, path: '/reset-password' });
    await userEvent.type(await screen.findByLabelText('Nouveau mot de passe'), 'abcdefghij');
    await userEvent.click(screen.getByRole('button', { name: /Réinitialiser/ }));
    expect(
      await screen.findByText('Le mot de passe doit contenir au moins une minuscule, une majuscule et un chiffre'),
    ).toBeTruthy();
    expect(screen.getByText('La confirmation du mot de passe est requise')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Nouveau mot de passe'));
    await userEvent.type(screen.getByLabelText('Nouveau mot de passe'), 'Cartable2026');
    await userEvent.type(screen.getByLabelText('Confirmer le mot de passe'), 'Cartable2025');
    await userEvent.click(screen.getByRole('button', { name: /Réinitialiser/ }));
    expect(await screen.findByText('Les mots de passe ne correspondent pas')).toBeTruthy();
  });

  it('maps a 400 to the expired-link message', async () => {
    validLink();
    server.use(http.post(apiPath('/reset-password'), () => errorAnswer(400, 'x')));
    renderScreen(<ResetPasswordPage />, { at: LINK, path: '/reset-password' });
    await userEvent.type(await screen.findByLabelText('Nouveau mot de passe'), 'Cartable2026');
    await userEvent.type(screen.getByLabelText('Confirmer le mot de passe'), 'Cartable2026');
    await userEvent.click(screen.getByRole('button', { name: /Réinitialiser/ }));
    expect(await screen.findByText('Le lien de réinitialisation est invalide ou a expiré')).toBeTruthy();
  });
});

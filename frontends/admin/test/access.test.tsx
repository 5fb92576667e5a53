import { member, renderScreen } from '@cartable/ui/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AdminApp from '../src/App';

/**
 * The back office of a member who holds one permission: the menu of SPEC section 6 (dashboard,
 * plans, banners, contacts and comments always, the rest by permission), and a screen he may not
 * use that says why in French instead of sending him elsewhere.
 */
const citiesManager = member({
  name: 'Paul Mba',
  permissions: [{ slug: 'cities.manage' }],
});

function menuLabels() {
  const nav = screen.getAllByRole('navigation', { name: 'Administration' })[0]!;
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent?.trim());
}

describe('the back office of a member with one permission', () => {
  it('shows the menu of the spec: the screens always shown, then his own', async () => {
    renderScreen(<AdminApp />, { at: '/admin/banners', as: citiesManager });
    await screen.findByRole('heading', { level: 1, name: 'Bannières' });
    expect(menuLabels()).toEqual([
      'Tableau de bord',
      'Gestion des villes',
      "Plans d'abonnement",
      'Bannières',
      'Messages de contact',
      'Modération des commentaires',
    ]);
  });

  it('says which permission a screen needs, with a way back, rather than leaving the page', async () => {
    renderScreen(<AdminApp />, { at: '/admin/banners', as: citiesManager });
    expect(await screen.findByText('Accès refusé')).toBeTruthy();
    expect(screen.getByText(/demande la permission « Gérer les bannières »/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Retour au tableau de bord' }).getAttribute('href')).toBe(
      '/admin/dashboard',
    );
  });

  it('says a screen is for administrators only when no permission opens it', async () => {
    renderScreen(<AdminApp />, { at: '/admin/contacts', as: citiesManager });
    await screen.findByRole('heading', { level: 1, name: 'Messages de contact' });
    expect(screen.getByText(/réservé aux administrateurs/)).toBeTruthy();
  });

  it('gives the holder of user_subscriptions.manage the listings « À la une » in the menu', async () => {
    const manager = member({
      permissions: [{ slug: 'user_subscriptions.manage' }],
    });
    renderScreen(<AdminApp />, { at: '/admin/subscriptions', as: manager });
    await screen.findByText('Accès refusé');
    expect(menuLabels()).toContain('Annonces à la une');
  });
});

import { apiPath, errorAnswer, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import RateTransactionPage from '../src/features/ratings/RateTransactionPage';
import SubscriptionDetailPage from '../src/features/subscriptions/SubscriptionDetailPage';
import TransactionDetailPage from '../src/features/transactions/TransactionDetailPage';

/**
 * A link with a wrong id (typed, cut, or to something gone) leads to a screen that says
 * « introuvable » once, with a way back, and never offers a « Réessayer » that cannot succeed:
 * the API answers 404 for an id that names nothing, 422 for one that cannot name anything.
 */
const invalid = () => errorAnswer(422, 'Les données envoyées sont invalides.');
const missing = () => errorAnswer(404, 'Transaction introuvable.');

describe('a link with a wrong id', () => {
  it.each([
    ['an id that cannot be one', invalid],
    ['an id of nothing', missing],
  ])('to a deal (%s) says it cannot be found, with a way to the member’s deals', async (_case, answer) => {
    server.use(http.get(apiPath('/transactions/:id'), answer));
    renderScreen(<TransactionDetailPage />, { at: '/transactions/999999', path: '/transactions/:id', as: member() });
    expect(await screen.findByRole('heading', { name: 'Transaction introuvable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mes transactions' }).getAttribute('href')).toBe('/transactions');
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
    expect(screen.queryByText('Les données envoyées sont invalides.')).toBeNull();
  });

  it('to a deal to rate says it cannot be found, with a way to the member’s deals', async () => {
    server.use(http.get(apiPath('/transactions/:id'), invalid));
    renderScreen(<RateTransactionPage />, {
      at: '/rate-transaction/999999',
      path: '/rate-transaction/:transactionId',
      as: member(),
    });
    expect(await screen.findByRole('heading', { name: 'Transaction introuvable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mes transactions' })).toBeTruthy();
    expect(screen.queryByText('Les données envoyées sont invalides.')).toBeNull();
  });

  it('to a subscription says it cannot be found, with a way back to the member’s subscriptions', async () => {
    server.use(http.get(apiPath('/subscriptions/:id'), invalid));
    renderScreen(<SubscriptionDetailPage />, {
      at: '/subscription/details/999999',
      path: '/subscription/details/:id',
      as: member(),
    });
    expect(await screen.findByRole('heading', { name: 'Abonnement introuvable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Mes abonnements/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
  });
});

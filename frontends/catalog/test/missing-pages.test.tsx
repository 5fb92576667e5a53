import { apiPath, errorAnswer, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import ConversationPage from '../src/features/conversations/ConversationPage';
import BookFormPage from '../src/features/listing-form/BookFormPage';
import RateTransactionPage from '../src/features/ratings/RateTransactionPage';
import PaymentFollowPage from '../src/features/subscriptions/PaymentFollowPage';
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
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction introuvable' })).toBeTruthy();
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
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction introuvable' })).toBeTruthy();
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
    expect(await screen.findByRole('heading', { level: 1, name: 'Abonnement introuvable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Mes abonnements/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
  });

  it('to a listing to edit says it cannot be found, with a way to the member’s listings', async () => {
    server.use(http.get(apiPath('/books/:id'), () => errorAnswer(404, 'Ce manuel est introuvable.')));
    renderScreen(<BookFormPage />, { at: '/books/edit/999999', path: '/books/edit/:id', as: member() });
    expect(await screen.findByRole('heading', { name: 'Annonce introuvable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mes manuels' }).getAttribute('href')).toBe('/my-books');
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
  });

  it('to a conversation says it cannot be found, without its composer or the server’s words', async () => {
    server.use(
      http.get(apiPath('/messages/conversation/:bookId/:userId'), invalid),
      http.get(apiPath('/books/:id'), () => errorAnswer(404, 'Ce manuel est introuvable.')),
      http.get(apiPath('/messages/stream'), () => errorAnswer(404, 'Introuvable.')),
    );
    renderScreen(<ConversationPage />, { at: '/messages/999999/abc', path: '/messages/:bookId/:userId', as: member() });
    expect(await screen.findByRole('heading', { name: 'Conversation introuvable' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mes messages' }).getAttribute('href')).toBe('/messages');
    expect(screen.queryByText('Les données envoyées sont invalides.')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('to a payment says it cannot be found, and stops asking', async () => {
    let asked = 0;
    server.use(
      http.get(apiPath('/payments/:id'), () => {
        asked += 1;
        return invalid();
      }),
    );
    // The page's clock only: the requests still answer as they come.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderScreen(<PaymentFollowPage />, { at: '/payment/999999', path: '/payment/:id', as: member() });
      expect(await screen.findByRole('heading', { level: 1, name: 'Paiement introuvable' })).toBeTruthy();
      const after = asked;
      // Three times the page's polling interval.
      await vi.advanceTimersByTimeAsync(9_000);
      expect(asked).toBe(after);
    } finally {
      vi.useRealTimers();
    }
  });
});

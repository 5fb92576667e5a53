import type { Subscription, SubscriptionPage } from '@cartable/contracts';
import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import BoostBookPage from '../src/features/subscriptions/BoostBookPage';
import MySubscriptionsPage from '../src/features/subscriptions/MySubscriptionsPage';
import { aBookDetail } from './fixtures';

/**
 * « Mes abonnements » and the boost page. A boost whose payment was refused says so, with the aggregator's reason as a
 * sentence, names the listing it was for, and offers to try again.
 */
function aBoost(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'b0000000-0000-4000-8000-000000000001',
    user_id: member().id,
    user_name: 'Awa Nzé',
    plan_id: 1,
    plan: {
      kind: 'boost',
      name: 'À la une 7 jours',
      price: 500,
      duration_days: 7,
      boost_slots: 1,
      seller_badge: false,
      listings_limit: null,
    },
    status: 'pending_payment',
    status_label: 'En attente de paiement',
    starts_at: null,
    ends_at: null,
    days_left: 0,
    cancelled_at: null,
    cancel_reason: null,
    books: [],
    book: { id: 42, title: 'Mathématiques 6e, Collection Excellence' },
    last_payment: null,
    created_at: '2026-09-01T08:00:00.000Z',
    updated_at: '2026-09-01T08:00:00.000Z',
    ...overrides,
  };
}

function open(subscriptions: Subscription[]) {
  const answer: SubscriptionPage = {
    data: subscriptions,
    meta: { current_page: 1, last_page: 1, total: subscriptions.length },
  };
  server.use(http.get(apiPath('/subscriptions'), () => HttpResponse.json(answer)));
  return renderScreen(<MySubscriptionsPage />, { at: '/my-subscriptions', as: member() });
}

describe('my subscriptions', () => {
  it('says a refused payment in a sentence, names the listing, and offers to try again', async () => {
    open([
      aBoost({
        last_payment: { status: 'failed', failure_reason: 'Solde insuffisant', created_at: '2026-09-01T08:01:00.000Z' },
      }),
    ]);
    const card = await screen.findByTestId('subscription-card');
    expect(within(card).getByText(/Paiement refusé : solde insuffisant\./)).toBeTruthy();
    // The badge says the refusal too, not « En attente de paiement ».
    expect(within(card).getByText('Paiement refusé')).toBeTruthy();
    expect(within(card).queryByText('En attente de paiement')).toBeNull();
    expect(within(card).getByRole('link', { name: '« Mathématiques 6e, Collection Excellence »' })).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Réessayer le paiement' }).getAttribute('href')).toBe(
      '/subscription/details/b0000000-0000-4000-8000-000000000001',
    );
  });

  it('keeps « en attente » for a payment not yet answered', async () => {
    open([
      aBoost({ last_payment: { status: 'pending', failure_reason: null, created_at: '2026-09-01T08:01:00.000Z' } }),
    ]);
    const card = await screen.findByTestId('subscription-card');
    expect(within(card).getByText(/En attente de votre paiement/)).toBeTruthy();
    expect(within(card).queryByText(/Paiement refusé/)).toBeNull();
    expect(within(card).getByRole('link', { name: 'Payer ou déclarer' })).toBeTruthy();
  });
});

describe('boosting a listing already « À la une »', () => {
  const owner = member({ id: '5a3c1f0e-7b8d-4e2a-9c6b-1d2e3f4a5b6c' });

  function openBoostPage(active: Subscription[]) {
    let plansAsked = 0;
    server.use(
      http.get(apiPath('/books/12'), () => HttpResponse.json({ book: aBookDetail() })),
      http.get(apiPath('/subscription-plans'), () => {
        plansAsked++;
        return HttpResponse.json({ data: [], providers: [] });
      }),
      http.get(apiPath('/subscriptions'), ({ request }) => {
        expect(new URL(request.url).searchParams.get('status')).toBe('active');
        return HttpResponse.json({ data: active, meta: { current_page: 1, last_page: 1, total: active.length } });
      }),
    );
    renderScreen(<BoostBookPage />, { at: '/books/12/subscription', path: '/books/:bookId/subscription', as: owner });
    return () => plansAsked;
  }

  it('says what runs and until when, and offers to extend it instead of a second boost', async () => {
    openBoostPage([
      aBoost({
        status: 'active',
        status_label: 'Actif',
        book: { id: 12, title: 'Mathématiques 6e' },
        books: [
          {
            id: 'd0000000-0000-4000-8000-000000000001',
            subscription_id: 'b0000000-0000-4000-8000-000000000001',
            book_id: 12,
            book_title: 'Mathématiques 6e',
            book_status: 'disponible',
            user_id: owner.id,
            starts_at: '2026-09-01T08:00:00.000Z',
            ends_at: '2026-09-08T08:00:00.000Z',
            ended_at: null,
            end_reason: null,
            transferable: false,
          },
        ],
      }),
    ]);
    const running = await screen.findByTestId('running-boost');
    expect(within(running).getByRole('heading', { name: /Déjà « À la une » jusqu’au 8 septembre 2026/ })).toBeTruthy();
    expect(within(running).getByRole('button', { name: 'Prolonger de 7 jours' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Mettre en avant 7 jours/ })).toBeNull();
  });

  it('offers the durations when nothing runs for this listing', async () => {
    openBoostPage([]);
    expect(await screen.findByRole('heading', { name: 'Choisissez la durée' })).toBeTruthy();
    expect(screen.queryByTestId('running-boost')).toBeNull();
  });
});

import { apiPath, errorAnswer, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import PaymentDetailPage from '../src/features/payments/PaymentDetailPage';

/** A link to a payment that names nothing, or cannot name one, says « introuvable » as the page's heading, without « Réessayer ». */
const admin = member({ is_admin: true, name: 'Administrateur Cartable', email: 'admin@cartable.ga' });

describe('a wrong link to a payment in the back office', () => {
  it.each([
    ['an id of nothing', 404],
    ['an id that cannot be one', 422],
  ])('says the payment cannot be found (%s)', async (_case, status) => {
    server.use(http.get(apiPath('/admin/payments/:id'), () => errorAnswer(status, 'Introuvable.')));
    renderScreen(<PaymentDetailPage />, { at: '/admin/payments/abc', path: '/admin/payments/:id', as: admin });
    expect(await screen.findByRole('heading', { level: 1, name: 'Paiement introuvable' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Réessayer' })).toBeNull();
  });
});

import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import RateTransactionPage from '../src/features/ratings/RateTransactionPage';
import { aDeal } from './fixtures';

/** /rate-transaction/{id}: 1 to 5 stars and a comment of 2 to 500 characters, after a confirmed deal. */
const deal = aDeal();
const at = `/rate-transaction/${deal.id}`;

function open(transaction = deal) {
  server.use(http.get(apiPath(`/transactions/${deal.id}`), () => HttpResponse.json({ transaction })));
  renderScreen(<RateTransactionPage />, { at, path: '/rate-transaction/:transactionId', as: member() });
}

describe('rating form', () => {
  it('waits for the deal to be confirmed', async () => {
    open(aDeal({ status: 'proposed', status_label: 'Proposée' }));
    expect(await screen.findByText('Pas encore possible')).toBeTruthy();
    expect(
      screen.getByText('Vous pourrez évaluer cette transaction une fois qu’elle aura été confirmée.'),
    ).toBeTruthy();
  });

  it('asks for the stars and refuses a one-character comment, in French', async () => {
    open();
    const comment = await screen.findByLabelText('Votre commentaire');
    const publish = screen.getByRole('button', { name: 'Publier mon évaluation' }) as HTMLButtonElement;
    expect(publish.disabled).toBe(true);
    await userEvent.type(comment, 'B');
    await userEvent.click(publish);
    expect(await screen.findByText('La note doit être comprise entre 1 et 5 étoiles')).toBeTruthy();
    expect(screen.getByText('Le commentaire doit contenir au moins 2 caractères')).toBeTruthy();
  });

  it('sends four stars and the comment, and shows the server’s refusal', async () => {
    let sent: unknown;
    server.use(
      http.post(apiPath('/ratings'), async ({ request }) => {
        sent = await request.json();
        return errorAnswer(409, 'Vous avez déjà évalué cette transaction. Vous pouvez modifier votre évaluation.');
      }),
    );
    open();
    await userEvent.click(await screen.findByLabelText(/^4 étoiles/));
    await userEvent.type(screen.getByLabelText('Votre commentaire'), 'Vendeuse ponctuelle, manuel comme décrit.');
    await userEvent.click(screen.getByRole('button', { name: 'Publier mon évaluation' }));
    expect(
      await screen.findByText('Vous avez déjà évalué cette transaction. Vous pouvez modifier votre évaluation.'),
    ).toBeTruthy();
    expect(sent).toMatchObject({
      transaction_id: deal.id,
      rating: 4,
      comment: 'Vendeuse ponctuelle, manuel comme décrit.',
    });
  });

  it('says a deal it cannot see is not found', async () => {
    server.use(http.get(apiPath(`/transactions/${deal.id}`), () => errorAnswer(404, 'Transaction introuvable.')));
    renderScreen(<RateTransactionPage />, { at, path: '/rate-transaction/:transactionId', as: member() });
    expect(await screen.findByText('Transaction introuvable')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Mes transactions' }).getAttribute('href')).toBe('/transactions');
  });
});

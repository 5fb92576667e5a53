import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import CheckoutDialog from '../src/features/subscriptions/CheckoutDialog';

/** The checkout of a plan: the operator and the phone, then the declaration of a manual payment. */
const plan = { id: 2, name: 'Vendeur Pro', price: 2500, duration_days: 30, kind: 'member' as const };
const payment = {
  id: 'c0ffee00-0000-4000-8000-000000000001',
  amount: 2500,
  reference: 'CRT-7Q2K9D',
  operator: 'airtel_money' as const,
  provider: 'manual',
};

beforeEach(() => {
  server.use(
    http.get(apiPath('/subscription-plans'), () =>
      HttpResponse.json({ data: [], providers: [{ name: 'manual', label: 'Déclaration manuelle' }] }),
    ),
  );
});

describe('checkout', () => {
  it('refuses a phone number that is not a Gabonese mobile, in French', async () => {
    let asked = 0;
    server.use(
      http.post(apiPath('/subscriptions'), () => {
        asked++;
        return HttpResponse.json({});
      }),
    );
    renderScreen(<CheckoutDialog open onClose={() => {}} plan={plan} />, { as: member() });
    expect(await screen.findByRole('dialog', { name: 'S’abonner : Vendeur Pro' })).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Votre numéro (facultatif)'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Continuer' }));
    expect(await screen.findByText('Numéro de téléphone gabonais invalide (ex. 077 12 34 56)')).toBeTruthy();
    expect(asked).toBe(0);
  });

  it('asks for the SMS’s reference and its form before declaring a payment', async () => {
    let declared: unknown;
    server.use(
      http.post(apiPath(`/payments/${payment.id}/declaration`), async ({ request }) => {
        declared = await request.json();
        return HttpResponse.json({ message: 'Paiement déclaré', payment: {} });
      }),
    );
    renderScreen(
      <CheckoutDialog
        open
        onClose={() => {}}
        plan={plan}
        resume={{ subscriptionId: 'a0000000-0000-4000-8000-000000000002', payment }}
      />,
      { as: member() },
    );
    const declare = await screen.findByRole('button', { name: 'Déclarer mon paiement' });
    await userEvent.click(declare);
    expect(await screen.findByText('Indiquez la référence de la transaction reçue par SMS')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Référence de la transaction (SMS)'), 'AB1');
    await userEvent.click(declare);
    expect(await screen.findByText('La référence contient 6 à 40 lettres ou chiffres')).toBeTruthy();
    expect(declared).toBeUndefined();
    await userEvent.clear(screen.getByLabelText('Référence de la transaction (SMS)'));
    await userEvent.type(screen.getByLabelText('Référence de la transaction (SMS)'), 'mp240612.1234.a56789');
    await userEvent.type(screen.getByLabelText('Numéro qui a payé'), '077 12 34 56');
    await userEvent.click(declare);
    expect(await screen.findByText('Paiement déclaré')).toBeTruthy();
    expect(declared).toMatchObject({ operator: 'airtel_money', transaction_reference: 'MP240612.1234.A56789' });
  });
});

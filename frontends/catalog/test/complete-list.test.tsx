import type { ClassListBaskets } from '@cartable/contracts';
import { apiPath, errorAnswer, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CompleteList } from '../src/features/class-lists/CompleteList';

const LIBREVILLE = { id: 1, name: 'Libreville', province: 'Estuaire' };
const OWENDO = { id: 2, name: 'Owendo', province: 'Estuaire' };
const BRICE = { id: '2b1d6c0e-3f4a-4b5c-8d9e-0a1b2c3d4e5f', name: 'Brice Vendeur', username: 'brice' };
const AWA = { id: '3c2e7d1f-4a5b-4c6d-9e0f-1b2c3d4e5f60', name: 'Awa Vendeuse', username: 'awa' };
const CHANTAL = { id: '4d3f8e2a-5b6c-4d7e-8f10-2c3d4e5f6071', name: 'Chantal Vendeuse', username: 'chantal' };

const brice = {
  seller: BRICE,
  total: 1500,
  listings: [
    { id: 11, title: 'Maths Panier 6e', price: 1500, items: [{ id: 1, name: 'Maths Panier 6e' }], lot_size: null },
    { id: 12, title: 'Histoire Panier 6e', price: 0, items: [{ id: 3, name: 'Histoire Panier 6e' }], lot_size: null },
  ],
};

function answer(): ClassListBaskets {
  return {
    list_id: 7,
    city: LIBREVILLE,
    missing: 4,
    fares: { town: 1000, province: 3000 },
    baskets: [
      {
        goal: 'cheapest',
        label: 'Le moins cher',
        total: 2000,
        reference_total: 3000,
        saving: 1000,
        meetings: 2,
        fares: 4000,
        optimal: true,
        towns: [
          { city: LIBREVILLE, sellers: [brice] },
          {
            city: OWENDO,
            sellers: [
              {
                seller: CHANTAL,
                total: 500,
                listings: [
                  {
                    id: 13,
                    title: 'Français Panier 6e',
                    price: 500,
                    items: [{ id: 2, name: 'Français Panier 6e' }],
                    lot_size: null,
                  },
                ],
              },
            ],
          },
        ],
        uncovered: [{ id: 4, name: 'Anglais Panier 6e' }],
      },
      {
        goal: 'fewest_meetings',
        label: 'Le moins de rendez-vous',
        total: 2000,
        reference_total: 3000,
        saving: 1000,
        meetings: 2,
        fares: 4000,
        optimal: true,
        towns: [],
        uncovered: [{ id: 4, name: 'Anglais Panier 6e' }],
      },
      {
        goal: 'balanced',
        label: 'Le meilleur compromis',
        total: 2500,
        reference_total: 3000,
        saving: 500,
        meetings: 2,
        fares: 2000,
        optimal: true,
        towns: [
          {
            city: LIBREVILLE,
            sellers: [
              {
                seller: AWA,
                total: 1000,
                listings: [
                  {
                    id: 14,
                    title: 'Français Panier 6e',
                    price: 1000,
                    items: [{ id: 2, name: 'Français Panier 6e' }],
                    lot_size: null,
                  },
                ],
              },
              brice,
            ],
          },
        ],
        uncovered: [{ id: 4, name: 'Anglais Panier 6e' }],
      },
    ],
  };
}

const render = () => renderScreen(<CompleteList listId={7} levelName="6e" />);
const text = (el: HTMLElement) => el.textContent?.replace(/\s/g, ' ') ?? '';

describe('« Compléter ma liste »', () => {
  it('shows the balanced basket first, its sellers by town, its saving and what stays uncovered', async () => {
    server.use(http.get(apiPath('/my-class-lists/7/baskets'), () => HttpResponse.json(answer())));
    render();
    expect(text(await screen.findByTestId('basket-total'))).toBe('2 500 F CFA');
    expect(screen.getByRole('button', { name: /Le meilleur compromis/, pressed: true })).toBeTruthy();
    expect(text(screen.getByTestId('basket-meetings'))).toBe('2 rendez-vous · 1 ville');
    expect(text(screen.getByTestId('basket-saving'))).toMatch(/Économie : 500 F CFA/);
    expect(screen.getByText(/1 000 F CFA dans votre ville/)).toBeTruthy();
    const sellers = screen.getAllByTestId('basket-seller');
    expect(sellers.map((s) => within(s).getAllByText(/Vendeu/)[0]!.textContent)).toEqual([
      'Awa Vendeuse',
      'Brice Vendeur',
    ]);
    expect(within(sellers[1]!).getByText('Don')).toBeTruthy();
    expect(within(screen.getByTestId('basket-uncovered')).getByText('Anglais Panier 6e')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: /Le moins cher/ }));
    expect(text(screen.getByTestId('basket-total'))).toBe('2 000 F CFA');
    expect(screen.getByRole('heading', { name: /Owendo/ })).toBeTruthy();
  });

  it('prepares one message per seller and sends it through the messages', async () => {
    let sent: unknown;
    server.use(
      http.get(apiPath('/my-class-lists/7/baskets'), () => HttpResponse.json(answer())),
      http.post(apiPath('/messages'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Message envoyé avec succès' }, { status: 201 });
      }),
    );
    render();
    await userEvent.click(await screen.findByRole('button', { name: /Contacter les vendeurs/ }));
    const toBrice = screen.getByLabelText('Message à Brice Vendeur') as HTMLTextAreaElement;
    expect(toBrice.value).toBe(
      'Bonjour, je suis intéressé par « Maths Panier 6e » et « Histoire Panier 6e » pour la liste de 6e. Sont-ils toujours disponibles ? Où pourrions-nous nous retrouver ?',
    );
    expect((screen.getByLabelText('Message à Awa Vendeuse') as HTMLTextAreaElement).value).toMatch(
      /par « Français Panier 6e » pour la liste de 6e\. Est-il toujours disponible \?/,
    );
    const card = screen.getAllByTestId('basket-seller')[1]!;
    await userEvent.click(within(card).getByRole('button', { name: 'Envoyer' }));
    expect(await within(card).findByText(/Message envoyé/)).toBeTruthy();
    expect(sent).toEqual({ receiver_id: BRICE.id, book_id: 11, content: toBrice.value, send_email_copy: false });
    expect(within(card).getByRole('link', { name: 'Voir la conversation' }).getAttribute('href')).toBe(
      `/messages/11/${BRICE.id}`,
    );
  });

  it('shows a swap as « Échange : … contre … » and offers the family’s book in the message', async () => {
    const swap = answer();
    const balanced = swap.baskets[2]!;
    balanced.towns[0]!.sellers[0] = {
      seller: AWA,
      total: 0,
      listings: [
        {
          id: 14,
          title: 'Français Panier 6e',
          price: 0,
          items: [{ id: 2, name: 'Français Panier 6e' }],
          lot_size: null,
          exchange_for: { id: 5, name: 'Musique Panier 6e' },
        },
      ],
    };
    server.use(http.get(apiPath('/my-class-lists/7/baskets'), () => HttpResponse.json(swap)));
    render();
    const awa = (await screen.findAllByTestId('basket-seller'))[0]!;
    expect(text(within(awa).getByTestId('basket-swap'))).toBe('Échange : Français Panier 6e contre Musique Panier 6e');
    expect(within(awa).getByText('Échange')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Contacter les vendeurs/ }));
    expect((screen.getByLabelText('Message à Awa Vendeuse') as HTMLTextAreaElement).value).toBe(
      'Bonjour, je suis intéressé par « Français Panier 6e » pour la liste de 6e. Je vous propose en échange « Musique Panier 6e », que vous recherchez. Est-il toujours disponible ? Où pourrions-nous nous retrouver ?',
    );
  });

  it('says when the saved list has no town, when nothing is offered, and when the baskets failed', async () => {
    server.use(
      http.get(apiPath('/my-class-lists/7/baskets'), () =>
        errorAnswer(409, 'Choisissez d’abord la ville où vous cherchez dans « Ma liste ».'),
      ),
    );
    const first = render();
    expect(text(await screen.findByTestId('baskets-no-town'))).toMatch(/Choisissez d’abord la ville/);
    first.unmount();

    server.use(http.get(apiPath('/my-class-lists/7/baskets'), () => HttpResponse.json({ ...answer(), baskets: [] })));
    const second = render();
    expect(text(await screen.findByTestId('baskets-empty'))).toMatch(/n’est proposé à Libreville ni dans sa province/);
    second.unmount();

    server.use(
      http.get(apiPath('/my-class-lists/7/baskets'), () => errorAnswer(404, 'Vous n’avez pas enregistré cette liste.')),
    );
    render();
    expect(await screen.findByText('Les paniers n’ont pas pu être composés')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Réessayer' })).toBeTruthy();
  });
});

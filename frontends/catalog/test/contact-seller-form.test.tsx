import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ContactSellerForm } from '../src/features/conversations/ContactSellerForm';
import { aBookDetail } from './fixtures';

/** The message to a seller: not blank, the optional copy by e-mail, the success and failure messages. */
function open(onSent = vi.fn()) {
  renderScreen(<ContactSellerForm book={aBookDetail()} onSent={onSent} />, { as: member() });
  return { field: screen.getByLabelText('Votre message') as HTMLTextAreaElement, onSent };
}

describe('message to the seller', () => {
  it('refuses a blank message in French', async () => {
    const { field } = open();
    await userEvent.clear(field);
    await userEvent.type(field, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer le message' }));
    expect(await screen.findByText('Veuillez saisir un message')).toBeTruthy();
  });

  it('sends the text with the copy asked for, and says so', async () => {
    let sent: Record<string, unknown> = {};
    server.use(
      http.post(apiPath('/messages'), async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(
          {
            message: {
              id: 'b1c2d3e4-0000-4000-8000-000000000001',
              sender_id: member().id,
              receiver_id: aBookDetail().user_id,
              book_id: 12,
              content: sent.content,
              is_read: false,
              created_at: '2026-12-01T10:00:00.000Z',
            },
            email_copy_sent: true,
          },
          { status: 201 },
        );
      }),
    );
    const { field, onSent } = open();
    await userEvent.clear(field);
    await userEvent.type(field, 'Bonjour, est-il encore disponible ?');
    await userEvent.click(screen.getByLabelText("M'envoyer une copie par email"));
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer le message' }));
    expect(await screen.findByText('Message envoyé avec succès')).toBeTruthy();
    expect(sent).toMatchObject({ content: 'Bonjour, est-il encore disponible ?', send_email_copy: true, book_id: 12 });
    expect(onSent).toHaveBeenCalled();
  });

  it('keeps the text and says the message did not leave when the server fails', async () => {
    server.use(http.post(apiPath('/messages'), () => errorAnswer(503, 'Service temporairement indisponible.')));
    const { field } = open();
    await userEvent.clear(field);
    await userEvent.type(field, 'Bonjour');
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer le message' }));
    expect((await screen.findAllByText("Erreur lors de l'envoi du message")).length).toBeGreaterThan(0);
    expect(field.value).toBe('Bonjour');
  });
});

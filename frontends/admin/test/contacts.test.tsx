import type { Contact, ContactListResponse, ContactStatsResponse } from '@cartable/contracts';
import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import ContactsPage from '../src/features/contacts/ContactsPage';

/**
 * « Messages de contact »: the search sent once typing pauses, the empty state of a search with
 * « Effacer les filtres », and the selection deleted after its confirmation.
 */
const admin = member({ is_admin: true, name: 'Administrateur Cartable', email: 'admin@cartable.ga' });

function aMessage(n: number): Contact {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `Parent ${n}`,
    email: `parent${n}@exemple.ga`,
    subject: `Question ${n}`,
    message: `Bonjour, une question sur les manuels de 6e (${n}).`,
    status: 'new',
    response: null,
    responded_at: null,
    created_at: '2026-10-05T09:30:00.000Z',
  };
}

const stats: ContactStatsResponse = { stats: { total: 2, new: 2, read: 0, answered: 0, archived: 0 } };
const listOf = (messages: Contact[]): ContactListResponse => ({
  data: messages,
  meta: { current_page: 1, last_page: 1, total: messages.length },
});

function open() {
  server.use(http.get(apiPath('/admin/contacts/stats'), () => HttpResponse.json(stats)));
  return renderScreen(<ContactsPage />, { at: '/admin/contacts', path: '/admin/contacts', as: admin });
}

describe('the contact messages of the back office', () => {
  it('searches once typing pauses, says when nothing matches, and clears the search and its field', async () => {
    const searched: Array<string | null> = [];
    server.use(
      http.get(apiPath('/admin/contacts'), ({ request }) => {
        const search = new URL(request.url).searchParams.get('search');
        searched.push(search);
        return HttpResponse.json(listOf(search ? [] : [aMessage(1), aMessage(2)]));
      }),
    );
    open();
    expect(await screen.findAllByText('Question 2')).toBeTruthy();

    const field = screen.getByLabelText('Rechercher') as HTMLInputElement;
    await userEvent.type(field, 'Port-Gentil');
    expect(await screen.findByText('Aucun message ne correspond à ces critères.')).toBeTruthy();
    // One request for what was typed, not one per key.
    expect(searched).toEqual([null, 'Port-Gentil']);

    await userEvent.click(screen.getByRole('button', { name: 'Effacer les filtres' }));
    expect(await screen.findAllByText('Question 1')).toBeTruthy();
    expect(field.value).toBe('');
  });

  it('deletes the selected messages once the deletion is confirmed', async () => {
    let deleted: string[] = [];
    server.use(
      http.get(apiPath('/admin/contacts'), () =>
        HttpResponse.json(listOf(deleted.length ? [] : [aMessage(1), aMessage(2)])),
      ),
      http.post(apiPath('/admin/contacts/bulk-delete'), async ({ request }) => {
        deleted = ((await request.json()) as { ids: string[] }).ids;
        return HttpResponse.json({ deleted: deleted.length });
      }),
    );
    open();
    await userEvent.click(await screen.findByLabelText('Sélectionner tous les messages de la page'));
    expect(screen.getByText('2 messages sélectionnés')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Supprimer la sélection' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Supprimer ces messages ?' });
    expect(within(confirm).getByText('Vous allez supprimer définitivement 2 messages.')).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Supprimer' }));

    expect(await screen.findByText('2 messages supprimés avec succès')).toBeTruthy();
    expect(deleted).toEqual([aMessage(1).id, aMessage(2).id]);
    await waitFor(() => expect(screen.queryByText('2 messages sélectionnés')).toBeNull());
    expect(await screen.findByText('Aucun message de contact')).toBeTruthy();
  });
});

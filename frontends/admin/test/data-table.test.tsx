import type { AdminUser, UserListResponse } from '@cartable/contracts';
import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import UsersPage from '../src/features/users/UsersPage';
import { DataTable } from '../src/shared/DataTable';

/**
 * The back office's lists (shared/DataTable) as a screen shows them, through « Gestion des
 * utilisateurs »: skeletons while loading, a French error with « Réessayer », an empty state, the
 * pages; and the table alone for the states a screen cannot hold still.
 */
const admin = member({ is_admin: true, name: 'Administrateur Cartable', email: 'admin@cartable.ga' });

function aMember(n: number): AdminUser {
  return {
    ...member({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      name: `Parent ${n}`,
      email: `parent${n}@exemple.ga`,
    }),
    username: `parent_${n}`,
    deactivated_at: null,
  };
}

function page(current: number, last: number, ids: number[]): UserListResponse {
  return { data: ids.map(aMember), meta: { current_page: current, last_page: last, total: last * 2, per_page: 2 } };
}

function open(at = '/admin/users') {
  server.use(http.get(apiPath('/roles'), () => HttpResponse.json({ roles: [] })));
  return renderScreen(<UsersPage />, { at, path: '/admin/users', as: admin });
}

describe('a back-office list', () => {
  it('shows skeletons while the first page loads', () => {
    const query = { isPending: true, isError: false, isFetching: true, error: null, refetch: () => {} };
    renderScreen(
      <DataTable
        caption="Utilisateurs"
        columns={[]}
        rows={undefined}
        rowKey={() => 1}
        card={() => null}
        query={query}
        empty={{ title: 'Aucun utilisateur' }}
        testId="user"
      />,
    );
    expect(screen.getByTestId('user-loading').getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Utilisateurs : chargement…');
  });

  it('says the list could not be loaded, why, and reads it again on « Réessayer »', async () => {
    let asked = 0;
    server.use(
      http.get(apiPath('/users/all'), () => {
        asked++;
        return asked === 1
          ? errorAnswer(503, 'Service temporairement indisponible.')
          : HttpResponse.json(page(1, 1, [1, 2]));
      }),
    );
    open();
    expect(await screen.findByText('Erreur lors du chargement des données')).toBeTruthy();
    expect(screen.getByText('Service temporairement indisponible.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findAllByText('Parent 2')).toBeTruthy();
  });

  it('says when there is no one, and offers to clear the filters when they hide everyone', async () => {
    const searched: Array<string | null> = [];
    server.use(
      http.get(apiPath('/users/all'), ({ request }) => {
        const search = new URL(request.url).searchParams.get('search');
        searched.push(search);
        return HttpResponse.json(search ? page(1, 1, []) : page(1, 1, [1]));
      }),
    );
    open('/admin/users?search=zzz');
    expect(await screen.findByText('Aucun utilisateur')).toBeTruthy();
    // The empty state's button (the filters' form has one too), the last on the page.
    const clear = screen.getAllByRole('button', { name: 'Effacer les filtres' });
    await userEvent.click(clear[clear.length - 1] as HTMLElement);
    expect(await screen.findAllByText('Parent 1')).toBeTruthy();
    expect(searched).toEqual(['zzz', null]);
  });

  it('pages through the members, asking the server for each page', async () => {
    const asked: string[] = [];
    server.use(
      http.get(apiPath('/users/all'), ({ request }) => {
        const n = Number(new URL(request.url).searchParams.get('page') ?? '1');
        asked.push(String(n));
        return HttpResponse.json(page(n, 3, [n * 2 - 1, n * 2]));
      }),
    );
    open();
    const cards = await screen.findByRole('list', { name: 'Utilisateurs' });
    expect(within(cards).getAllByTestId('user-card')).toHaveLength(2);
    const pages = screen.getByRole('navigation', { name: /Pagination|pages/i });
    expect(within(pages).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page');
    await userEvent.click(within(pages).getByRole('button', { name: 'Page suivante' }));
    expect(await screen.findAllByText('Parent 4')).toBeTruthy();
    await userEvent.click(within(pages).getByRole('button', { name: 'Page 3' }));
    expect(await screen.findAllByText('Parent 6')).toBeTruthy();
    expect((within(pages).getByRole('button', { name: 'Page suivante' }) as HTMLButtonElement).disabled).toBe(true);
    await waitFor(() => expect(asked).toEqual(['1', '2', '3']));
  });
});

import type { Report, ReportListResponse } from '@cartable/contracts';
import { apiPath, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import FlagsPage from '../src/features/flags/FlagsPage';

/**
 * « Signalements »: a decision is one call to moderation, which has the action applied where it
 * belongs; a report waiting for it reads « Action en cours ».
 */
const admin = member({ is_admin: true, name: 'Administrateur Cartable', email: 'admin@cartable.ga' });

function aReport(n: number, over: Partial<Report> = {}): Report {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    target_type: 'book',
    target_id: String(40 + n),
    target_label: `Maths 6e (${n})`,
    target_owner_id: '00000000-0000-4000-8000-0000000000aa',
    target_owner_name: 'Aïcha Mboumba',
    reason: 'arnaque',
    details: null,
    status: 'open',
    decision: null,
    note: null,
    reporter: { id: '00000000-0000-4000-8000-0000000000bb', name: 'Jean Ndong' },
    reports_on_target: 1,
    created_at: '2026-10-05T09:30:00.000Z',
    handled_at: null,
    ...over,
  };
}

describe('the reports of the back office', () => {
  it('hides a listing in one call, says the action is under way, and shows « Action en cours »', async () => {
    const calls: string[] = [];
    let decided = false;
    server.use(
      http.get(apiPath('/admin/reports'), () =>
        HttpResponse.json({
          data: [
            decided ? aReport(1, { status: 'applying', decision: 'hidden' }) : aReport(1),
            aReport(2, { status: 'applying', decision: 'deactivated', note: 'Arnaques' }),
          ],
          meta: { current_page: 1, last_page: 1, total: 2 },
          open: decided ? 0 : 1,
        } satisfies ReportListResponse),
      ),
      http.all(apiPath('/admin/*'), async ({ request }) => {
        if (request.method === 'GET') return undefined;
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        decided = true;
        expect(await request.json()).toEqual({ decision: 'hidden', note: 'Annonce frauduleuse' });
        return HttpResponse.json({ message: 'Décision enregistrée', resolved: 1, status: 'applying' });
      }),
    );
    renderScreen(<FlagsPage />, { at: '/admin/signalements', path: '/admin/signalements', as: admin });
    expect((await screen.findAllByText('Action en cours')).length).toBeGreaterThan(0);
    const filter = screen.getByLabelText('État') as HTMLSelectElement;
    expect([...filter.options].map((o) => o.text)).toContain('Action en cours');

    const [card] = await screen.findAllByTestId('flag-card');
    await userEvent.click(within(card!).getByRole('button', { name: 'Masquer le contenu' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Masquer cette annonce ?' });
    await userEvent.type(within(confirm).getByLabelText('Raison (communiquée au membre)'), 'Annonce frauduleuse');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Confirmer' }));

    expect(await screen.findByText('Décision enregistrée : l’annonce va être masquée.')).toBeTruthy();
    expect(calls).toEqual(['POST /api/admin/reports/00000000-0000-4000-8000-000000000001/resolve']);
    await waitFor(() => expect(screen.getByTestId('open-flags').textContent).toBe('0 à traiter'));
  });
});

import { type ClassListCoverage, schoolYearOf } from '@cartable/contracts';
import { apiPath, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListCoverage } from '../src/features/class-lists/ListCoverage';

const year = schoolYearOf();
const answer: ClassListCoverage = {
  school_year: year,
  rows: [
    {
      level: { id: 3, name: '6e' },
      city: { id: 1, name: 'Libreville', province: 'Estuaire' },
      families: 1250,
      coverable: 1000,
      coverable_share: 0.8,
      median_saving: 12500,
      most_wanted: [
        { title: 'Anglais 6e', families: 120 },
        { title: 'Atlas du Gabon', families: 1 },
      ],
    },
    {
      level: { id: 3, name: '6e' },
      city: null,
      families: 2,
      coverable: 0,
      coverable_share: 0,
      median_saving: null,
      most_wanted: [],
    },
  ],
  most_wanted: [{ title: 'Anglais 6e', families: 120 }],
  lists: 1252,
  truncated: false,
  computed_at: '2026-09-01T08:00:00.000Z',
};

/** « Couverture des listes »: per level and town, the saved lists the listings cover. */
describe('the coverage of saved class lists', () => {
  it('shows each level and town with its families, complete lists, median saving and wanted titles', async () => {
    server.use(
      http.get(apiPath('/admin/class-lists/coverage'), ({ request }) =>
        new URL(request.url).searchParams.get('school_year') === year
          ? HttpResponse.json(answer)
          : HttpResponse.json({ message: 'unexpected' }, { status: 500 }),
      ),
    );
    renderScreen(<ListCoverage />);
    const rows = await screen.findAllByTestId('coverage-row');
    expect(rows).toHaveLength(2);
    const cells = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent?.replace(/\s/g, ' '));
    expect(cells).toEqual([
      '6e',
      'Libreville',
      '1 250',
      '1 000 (80 %)',
      expect.stringMatching(/^12 500 F CFA$/),
      'Anglais 6e · 120 famillesAtlas du Gabon · 1 famille',
    ]);
    expect(rows[1]!.textContent).toContain('Ville non choisie');
    expect(rows[1]!.textContent).toContain('—');
    // Phones read the same as cards.
    const cards = screen.getAllByTestId('coverage-card');
    expect(cards[0]!.textContent).toContain('6e · Libreville');
    expect(cards[0]!.textContent).toContain('Économie médiane');
    expect(screen.getByTestId('coverage-most-wanted').textContent).toContain('Anglais 6e · 120 familles');
  });

  it('says when no family saved a list for the year chosen', async () => {
    const other = `${Number(year.slice(0, 4)) - 1}-${year.slice(0, 4)}`;
    server.use(
      http.get(apiPath('/admin/class-lists/coverage'), ({ request }) => {
        const asked = new URL(request.url).searchParams.get('school_year') ?? '';
        return HttpResponse.json(
          asked === other ? { ...answer, school_year: other, rows: [], most_wanted: [], lists: 0 } : answer,
        );
      }),
    );
    renderScreen(<ListCoverage />);
    await screen.findAllByTestId('coverage-row');
    fireEvent.change(screen.getByLabelText('Année scolaire'), { target: { value: other } });
    expect(await screen.findByText('Aucune famille n’a encore enregistré de liste pour cette année.')).toBeTruthy();
    expect(screen.queryByTestId('coverage-row')).toBeNull();
  });

  it('says so in French when the figures cannot be computed', async () => {
    server.use(
      http.get(apiPath('/admin/class-lists/coverage'), () =>
        HttpResponse.json({ message: 'Erreur interne' }, { status: 500 }),
      ),
    );
    renderScreen(<ListCoverage />);
    expect(await screen.findByText('Erreur lors du chargement des données')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Réessayer/ })).toBeTruthy();
  });
});

import { apiPath, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BookGrid } from '../src/entities/book/BookCard';
import { BookClassListsView } from '../src/entities/class-list/BookClassLists';
import { ListChanges } from '../src/features/class-lists/ListChanges';
import { aBook } from './fixtures';

/**
 * A list that changed, as a family reads it on « Ma liste » (what changed, the books they had
 * that are no longer needed) and as a buyer reads a listing's page (the lists that still name
 * the book, those that withdrew it).
 */
const list = { id: 7, level_id: 31, school_year: '2026-2027', level_name: '6e', school_name: null };

describe('« Ma liste » after a change', () => {
  it('says when the list was updated, what changed, and which owned books are no longer needed', () => {
    renderScreen(
      <ListChanges
        data={{
          list: { id: 7 } as never,
          version: {
            number: 2,
            source: 'admin',
            created_at: '2026-08-20T10:00:00.000Z',
            changes: [
              { kind: 'withdrawn', item: { id: 1, title: 'Français 6e Diallo', isbn: null }, previous: null },
              {
                kind: 'replaced',
                item: { id: 3, title: 'Maths 6e Nouvelle édition', isbn: null },
                previous: { id: 2, title: 'Maths 6e', isbn: null },
              },
            ],
          },
          no_longer_needed: [{ id: 1, title: 'Français 6e Diallo', isbn: null }],
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Liste mise à jour le 20 août 2026' })).toBeTruthy();
    const box = screen.getByTestId('list-changes').textContent ?? '';
    expect(box).toContain('Retiré : « Français 6e Diallo » (plus demandé)');
    expect(box).toContain('Remplacé : Maths 6e par « Maths 6e Nouvelle édition »');
    expect(screen.getByTestId('no-longer-needed').textContent).toContain('Plus nécessaire : « Français 6e Diallo »');
    expect(screen.getByRole('link', { name: 'Le vendre ou l’échanger' }).getAttribute('href')).toBe(
      '/ma-liste/vendre?list=7',
    );
  });

  it('shows nothing for a list as first written', () => {
    renderScreen(<ListChanges data={{ list: { id: 7 } as never, version: null, no_longer_needed: [] }} />);
    expect(screen.queryByTestId('list-changes')).toBeNull();
  });
});

describe('a listing’s lists', () => {
  it('names the lists that still ask for the book, and marks those that withdrew it', () => {
    renderScreen(
      <BookClassListsView
        lists={{
          named: [{ ...list, id: 8, school_year: '2027-2028' }],
          withdrawn: [{ ...list, withdrawn_at: '2026-08-20T10:00:00.000Z' }],
        }}
      />,
    );
    expect(screen.getByText('Retiré de la liste 2026-2027 (6e)')).toBeTruthy();
    const link = screen.getByRole('link', { name: '6e 2027-2028' });
    expect(link.getAttribute('href')).toBe('/ma-liste?level=31&list=8');
    expect(screen.getByTestId('book-class-lists').textContent).toContain('Sur la liste de : 6e 2027-2028');
  });
});

describe('a grid of listings', () => {
  it('marks for buyers the cards whose book a list withdrew, asking once for the whole grid', async () => {
    const asked: string[] = [];
    server.use(
      http.get(apiPath('/class-lists/withdrawn-books'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('ids') ?? '');
        return HttpResponse.json({ data: [{ book_id: 2, withdrawn: [list] }] });
      }),
    );
    renderScreen(<BookGrid books={[aBook({ id: 1 }), aBook({ id: 2, title: 'Français 6e Diallo' })]} />);
    expect(await screen.findByText('Retiré de la liste 2026-2027 (6e)')).toBeTruthy();
    expect(screen.getAllByTestId('withdrawn-badge')).toHaveLength(1);
    expect(asked).toEqual(['1,2']);
  });
});

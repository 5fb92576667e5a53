import type { ClassListVersionsResponse } from '@cartable/contracts';
import { apiPath, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListVersions } from '../src/features/class-lists/ListVersions';

/** A class list's history in the back office: each version with what it added, withdrew or replaced. */
describe('the history of a class list', () => {
  it('shows the newest version first, with each change and who made it', async () => {
    const answer: ClassListVersionsResponse = {
      data: [
        {
          number: 3,
          source: 'import',
          created_at: '2026-08-21T09:00:00.000Z',
          changes: [{ kind: 'added', item: { id: 9, title: 'Atlas du Gabon', isbn: null }, previous: null }],
        },
        {
          number: 2,
          source: 'admin',
          created_at: '2026-08-20T09:00:00.000Z',
          changes: [
            { kind: 'withdrawn', item: { id: 4, title: 'Français 6e Diallo', isbn: null }, previous: null },
            {
              kind: 'replaced',
              item: { id: 8, title: 'Maths 6e Nouvelle édition', isbn: null },
              previous: { id: 5, title: 'Maths 6e', isbn: null },
            },
          ],
        },
      ],
    };
    server.use(http.get(apiPath('/admin/class-lists/7/versions'), () => HttpResponse.json(answer)));
    renderScreen(<ListVersions listId={7} />);
    const versions = await screen.findAllByTestId('class-list-version');
    expect(versions).toHaveLength(2);
    expect(versions[0]!.textContent).toContain('Version 3');
    expect(versions[0]!.textContent).toContain('import CSV');
    expect(within(versions[1]!).getByText('Retiré')).toBeTruthy();
    expect(versions[1]!.textContent).toContain('administrateur');
    expect(versions[1]!.textContent).toContain('Maths 6e → remplacé par Maths 6e Nouvelle édition');
  });

  it('says a list never changed is still its first version', async () => {
    server.use(http.get(apiPath('/admin/class-lists/8/versions'), () => HttpResponse.json({ data: [] })));
    renderScreen(<ListVersions listId={8} />);
    expect(await screen.findByText('Version 1 : la liste n’a pas changé depuis qu’elle a été écrite.')).toBeTruthy();
  });
});

import type { Comment, CommentPage, CommentResponse } from '@cartable/contracts';
import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CommentsSection } from '../src/features/comments/CommentsSection';

/**
 * The comments of a book page: the list with its replies and the pending badge, the form inside
 * it (what a member is told once the comment is sent, the server's refusal under the field, a
 * visitor asked to sign in), and the empty and failed states.
 */
const BOOK = 12;
const SELLER = '5a3c1f0e-7b8d-4e2a-9c6b-1d2e3f4a5b6c';
const reader = member();

function aComment(n: number, overrides: Partial<Comment> = {}): Comment {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    content: `Commentaire numéro ${n}`,
    parent_id: null,
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    status: 'approved',
    user: { id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `Parent ${n}`, profile_image: null },
    can_edit: false,
    can_delete: false,
    can_moderate: false,
    replies: [],
    ...overrides,
  };
}

const pageOf = (comments: Comment[]): CommentPage => ({
  data: comments,
  meta: { current_page: 1, last_page: 1, total: comments.length },
});

function open(options: { signedIn?: boolean } = {}) {
  return renderScreen(<CommentsSection bookId={BOOK} ownerId={SELLER} />, {
    at: `/books/${BOOK}`,
    path: '/books/:id',
    as: options.signedIn === false ? undefined : reader,
  });
}

describe('the comments of a book', () => {
  it('lists the comments with their replies, and the reader’s own comment awaiting moderation', async () => {
    const question = aComment(1, {
      content: 'Le livre est-il toujours disponible ?',
      replies: [aComment(2, { content: 'Oui, jusqu’à samedi.', parent_id: aComment(1).id })],
    });
    const mine = aComment(3, {
      content: 'Je peux passer à Akanda ?',
      status: 'pending',
      user: { id: reader.id, name: reader.name, profile_image: null },
      can_edit: true,
      can_delete: true,
    });
    server.use(http.get(apiPath(`/books/${BOOK}/comments`), () => HttpResponse.json(pageOf([mine, question]))));
    open();

    const first = await screen.findByRole('article', { name: 'Commentaire de Parent 1' });
    expect(within(first).getByText('Le livre est-il toujours disponible ?')).toBeTruthy();
    const replies = screen.getByRole('list', { name: 'Réponses à Parent 1' });
    expect(within(replies).getByText('Oui, jusqu’à samedi.')).toBeTruthy();
    expect(screen.getByTestId('comments-total').textContent).toBe('(2)');

    const own = screen.getByRole('article', { name: `Commentaire de ${reader.name}` });
    expect(within(own).getByText('En attente de modération')).toBeTruthy();
    expect(within(own).getByRole('button', { name: `Modifier le commentaire de ${reader.name}` })).toBeTruthy();
    expect(within(first).queryByRole('button', { name: /Modifier/ })).toBeNull();
  });

  it('says when there is no comment yet', async () => {
    server.use(http.get(apiPath(`/books/${BOOK}/comments`), () => HttpResponse.json(pageOf([]))));
    open();
    expect(await screen.findByText('Aucun commentaire pour le moment')).toBeTruthy();
    expect(screen.getByText('Soyez le premier à poser une question sur ce manuel.')).toBeTruthy();
    expect(screen.getByTestId('comments-total').textContent).toBe('(0)');
  });

  it('says the comments could not be loaded, and shows them after « Réessayer »', async () => {
    let asked = 0;
    server.use(
      http.get(apiPath(`/books/${BOOK}/comments`), () =>
        ++asked === 1
          ? errorAnswer(503, 'Service temporairement indisponible.')
          : HttpResponse.json(pageOf([aComment(1)])),
      ),
    );
    open();
    expect(await screen.findByText('Impossible de charger les commentaires')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('Commentaire numéro 1')).toBeTruthy();
    expect(screen.queryByText('Impossible de charger les commentaires')).toBeNull();
  });

  it('sends a member’s comment once, says it awaits moderation, and reads the list again', async () => {
    const sent: Array<{ content: string; key: string | null }> = [];
    let list: Comment[] = [];
    server.use(
      http.get(apiPath(`/books/${BOOK}/comments`), () => HttpResponse.json(pageOf(list))),
      http.post(apiPath(`/books/${BOOK}/comments`), async ({ request }) => {
        const { content } = (await request.json()) as { content: string };
        sent.push({ content, key: request.headers.get('Idempotency-Key') });
        const created = aComment(4, {
          content,
          status: 'pending',
          user: { id: reader.id, name: reader.name, profile_image: null },
        });
        list = [created];
        const answer: CommentResponse = {
          message: 'Commentaire ajouté avec succès (en attente de modération)',
          data: created,
        };
        return HttpResponse.json(answer, { status: 201 });
      }),
    );
    open();
    await screen.findByText('Aucun commentaire pour le moment');
    const field = (await screen.findByLabelText('Votre commentaire')) as HTMLTextAreaElement;
    expect(
      screen.getByText('Votre commentaire sera visible par tous après validation par le vendeur ou un modérateur.'),
    ).toBeTruthy();
    await userEvent.type(field, 'Les pages sont-elles annotées ?');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));

    expect(await screen.findByText('Commentaire ajouté avec succès (en attente de modération)')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.content).toBe('Les pages sont-elles annotées ?');
    expect(sent[0]?.key).toMatch(/\S{16,}/);
    const own = await screen.findByRole('article', { name: `Commentaire de ${reader.name}` });
    expect(within(own).getByText('Les pages sont-elles annotées ?')).toBeTruthy();
    expect(within(own).getByText('En attente de modération')).toBeTruthy();
    expect(field.value).toBe('');
  });

  it('shows the server’s refusal under the field and keeps the text', async () => {
    server.use(
      http.get(apiPath(`/books/${BOOK}/comments`), () => HttpResponse.json(pageOf([]))),
      http.post(apiPath(`/books/${BOOK}/comments`), () =>
        errorAnswer(422, 'Données invalides', { content: ['Ce commentaire contient un lien interdit.'] }),
      ),
    );
    open();
    const field = (await screen.findByLabelText('Votre commentaire')) as HTMLTextAreaElement;
    await userEvent.type(field, 'Voir http://exemple');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByText('Ce commentaire contient un lien interdit.')).toBeTruthy();
    expect(field.value).toBe('Voir http://exemple');
    expect(screen.queryByText("Impossible d'ajouter le commentaire")).toBeNull();
  });

  it('asks a visitor to sign in to comment, and sends nothing', async () => {
    server.use(http.get(apiPath(`/books/${BOOK}/comments`), () => HttpResponse.json(pageOf([aComment(1)]))));
    open({ signedIn: false });
    await screen.findByText('Commentaire numéro 1');
    const signIn = screen.getByRole('link', { name: 'Connectez-vous' });
    expect(signIn.getAttribute('href')).toBe(`/login?return_url=${encodeURIComponent(`/books/${BOOK}#commentaires`)}`);

    const field = await screen.findByLabelText('Votre commentaire');
    await userEvent.type(field, 'Encore disponible ?');
    await userEvent.click(screen.getByRole('button', { name: 'Publier' }));
    expect(await screen.findByText('Vous devez être connecté pour commenter')).toBeTruthy();
    // No POST: an unanswered call would have failed the test.
    await userEvent.click(screen.getByRole('button', { name: 'Répondre' }));
    await waitFor(() => expect(screen.getByText('Vous devez être connecté pour répondre')).toBeTruthy());
  });
});

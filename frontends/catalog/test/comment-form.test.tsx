import { ApiError } from '@cartable/ui';
import { renderScreen } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CommentForm } from '../src/features/comments/CommentForm';

/** A comment, a reply or an edit: 2 to 500 characters, the counter, SPEC section 5's messages. */
function open(onSubmit = vi.fn<(content: string) => Promise<unknown>>(async () => ({}))) {
  renderScreen(<CommentForm label="Votre commentaire" submitLabel="Publier" onSubmit={onSubmit} />);
  return {
    field: screen.getByLabelText('Votre commentaire') as HTMLTextAreaElement,
    submit: screen.getByRole('button', { name: 'Publier' }) as HTMLButtonElement,
    onSubmit,
  };
}

describe('comment form', () => {
  it('keeps « Publier » off while the text is empty or blank', async () => {
    const { field, submit } = open();
    expect(submit.disabled).toBe(true);
    await userEvent.type(field, '   ');
    expect(submit.disabled).toBe(true);
  });

  it('refuses a single character in French and sends nothing', async () => {
    const { field, submit, onSubmit } = open();
    await userEvent.type(field, 'a');
    await userEvent.click(submit);
    expect(await screen.findByText('Le commentaire doit contenir au moins 2 caractères')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('counts what is left, warns under 50, and turns « Publier » off past 500', async () => {
    const { field, submit } = open();
    expect(screen.getByTestId('comment-counter').textContent).toBe('500 caractères restants');
    await userEvent.click(field);
    await userEvent.paste('x'.repeat(460));
    expect(screen.getByTestId('comment-counter').textContent).toBe('40 caractères restants');
    expect(screen.getByTestId('comment-counter').className).toContain('text-accent-800');
    await userEvent.paste('x'.repeat(41));
    expect(screen.getByTestId('comment-counter').textContent).toBe('1 caractère en trop');
    expect(submit.disabled).toBe(true);
  });

  it('sends the text, empties the field, and shows the server’s refusal under it', async () => {
    const onSubmit = vi
      .fn<(content: string) => Promise<unknown>>()
      .mockResolvedValueOnce({})
      .mockRejectedValueOnce(
        new ApiError(422, 'Données invalides', { errors: { content: ['Ce commentaire contient un lien interdit.'] } }),
      );
    const { field, submit } = open(onSubmit);
    await userEvent.type(field, 'Toujours disponible ?');
    await userEvent.click(submit);
    expect(onSubmit).toHaveBeenCalledWith('Toujours disponible ?');
    expect(field.value).toBe('');
    await userEvent.type(field, 'Voir http://exemple');
    await userEvent.click(submit);
    expect(await screen.findByText('Ce commentaire contient un lien interdit.')).toBeTruthy();
  });
});

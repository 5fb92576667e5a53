import { apiPath, errorAnswer, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import ContactPage from '../src/features/contact/ContactPage';

/** /contact: every field required, the server's question, French messages (SPEC section 5). */
const CAPTCHA = { captcha_id: '7d1f7d1c-3d5e-4b8c-9a3e-1f2a3b4c5d6e', question: 'Combien font 3 + 4 ?' };

beforeEach(() => {
  server.use(http.get(apiPath('/contact/captcha'), () => HttpResponse.json(CAPTCHA)));
});

function open() {
  renderScreen(<ContactPage />, { at: '/contact', path: '/contact' });
  return within(screen.getByRole('form', { name: 'Formulaire de contact' }));
}

async function fill(form: ReturnType<typeof open>) {
  await userEvent.type(form.getByLabelText('Nom complet'), 'Awa Nzé');
  await userEvent.type(form.getByLabelText('Adresse email'), 'awa@exemple.ga');
  await userEvent.type(form.getByLabelText('Sujet'), 'Une question');
  await userEvent.type(form.getByLabelText('Message'), 'Bonjour, comment vendre un lot ?');
  await userEvent.type(form.getByLabelText('Combien font 3 + 4 ?'), '7');
}

describe('contact form', () => {
  it('says what is missing and that the e-mail is malformed, and clears a message when its field changes', async () => {
    const form = open();
    await form.findByText(CAPTCHA.question);
    await userEvent.click(form.getByRole('button', { name: 'Envoyer le message' }));
    for (const message of ['Le nom est requis', "L'email est requis", 'Le sujet est requis', 'Le message est requis']) {
      expect(await form.findByText(message)).toBeTruthy();
    }
    await userEvent.type(form.getByLabelText('Nom complet'), 'A');
    expect(form.queryByText('Le nom est requis')).toBeNull();
    await userEvent.type(form.getByLabelText('Adresse email'), 'awa@');
    await userEvent.click(form.getByRole('button', { name: 'Envoyer le message' }));
    expect(await form.findByText('Veuillez entrer une adresse email valide')).toBeTruthy();
  });

  it('shows the server’s refusal of a wrong answer and asks a new question', async () => {
    let questions = 0;
    server.use(
      http.get(apiPath('/contact/captcha'), () => {
        questions++;
        return HttpResponse.json(CAPTCHA);
      }),
      http.post(apiPath('/contact'), () =>
        errorAnswer(422, 'Données invalides', {
          captcha_answer: ["Veuillez résoudre correctement l'opération mathématique"],
        }),
      ),
    );
    const form = open();
    await form.findByText(CAPTCHA.question);
    await fill(form);
    await userEvent.click(form.getByRole('button', { name: 'Envoyer le message' }));
    expect(await screen.findByText("Veuillez résoudre correctement l'opération mathématique")).toBeTruthy();
    expect(questions).toBeGreaterThanOrEqual(2);
  });

  it('sends the message, confirms it and clears the form', async () => {
    let sent: unknown;
    server.use(
      http.post(apiPath('/contact'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Message envoyé avec succès' }, { status: 201 });
      }),
    );
    const form = open();
    await form.findByText(CAPTCHA.question);
    await fill(form);
    await userEvent.click(form.getByRole('button', { name: 'Envoyer le message' }));
    expect(await screen.findByText(/Votre message a bien été envoyé/)).toBeTruthy();
    expect(sent).toMatchObject({ name: 'Awa Nzé', subject: 'Une question', captcha_answer: 7 });
    expect((form.getByLabelText('Nom complet') as HTMLInputElement).value).toBe('');
  });
});

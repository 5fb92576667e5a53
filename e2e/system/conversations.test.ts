import { listBook, verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/** Messages, comments and contact through the whole stack, with the e-mails they send. */
let stack: TestStack;
beforeAll(async () => {
  stack = sharedStack();
});
const mailsTo = async (address: string, subject: string) =>
  (await stack.mail.list()).filter((m) => m.to.some((t) => t.address === address) && m.subject.startsWith(subject));

describe('conversations, comments and contact', () => {
  it('messages a seller: one e-mail notice per conversation per 15 minutes, a copy on request', async () => {
    const seller = await verifiedMember(stack, 'vendeuse');
    const buyer = await verifiedMember(stack, 'acheteur');
    const bookId = await listBook(stack, seller.token, 'Physique-Chimie 3e');
    // messaging learns of the book from catalog's event.
    const send = (content: string, copy = false) =>
      call(`${stack.api}/messages`, {
        token: buyer.token,
        body: { receiver_id: seller.id, book_id: bookId, content, send_email_copy: copy },
      });
    const first = await eventually(async () => {
      const res = await send('Bonjour, il est disponible ?', true);
      return res.status === 201 ? res : undefined;
    });
    expect(first.body.message).toBe('Message envoyé avec succès');
    const notice = await stack.mail.waitFor(seller.email, { subject: 'Parent acheteur vous a écrit' });
    expect(notice.text).toContain('Bonjour, il est disponible ?');
    expect(notice.text).toContain(`/messages/${bookId}/${buyer.id}`);
    await stack.mail.waitFor(buyer.email, { subject: 'Copie de votre message' });

    expect((await send('Je peux passer samedi.')).status).toBe(201);
    expect((await call(`${stack.api}/messages/unread/count`, { token: seller.token })).body).toEqual({
      unreadCount: 2,
    });
    // Give the second message time to be handled, then check no second notice went out.
    await eventually(async () => ((await mailsTo(buyer.email, 'Copie')).length === 1 ? true : undefined));
    const thread = await call(`${stack.api}/messages/conversation/${bookId}/${buyer.id}`, { token: seller.token });
    expect(thread.body.data).toHaveLength(2);
    expect((await mailsTo(seller.email, 'Parent acheteur vous a écrit')).length).toBe(1);
    expect((await call(`${stack.api}/messages/unread/count`, { token: seller.token })).body).toEqual({
      unreadCount: 0,
    });
  });

  it('holds a comment for moderation, tells the owner by e-mail, and shows it once approved', async () => {
    const owner = await verifiedMember(stack, 'proprio');
    const commenter = await verifiedMember(stack, 'curieux');
    const bookId = await listBook(stack, owner.token, 'Histoire-Géographie 4e');
    const posted = await eventually(async () => {
      const res = await call(`${stack.api}/books/${bookId}/comments`, {
        token: commenter.token,
        body: { content: 'Quelle édition ?' },
      });
      return res.status === 201 ? res : undefined;
    });
    expect(posted.body.message).toBe('Commentaire ajouté avec succès (en attente de modération)');
    await stack.mail.waitFor(owner.email, { subject: 'Nouveau commentaire' });
    expect((await call(`${stack.api}/books/${bookId}/comments`)).body.data).toEqual([]);
    const admin = (
      await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } })
    ).body.access_token;
    const moderated = await call(`${stack.api}/admin/comments/${posted.body.data.id}/moderate`, {
      method: 'PATCH',
      token: admin,
      body: { status: 'approved' },
    });
    expect(moderated.status).toBe(200);
    const visible = await call(`${stack.api}/books/${bookId}/comments`);
    expect(visible.body.data.map((c: { content: string }) => c.content)).toEqual(['Quelle édition ?']);
  });

  it('takes a contact message with the server’s question and e-mails the admin’s answer', async () => {
    const { captcha_id, question } = (await call(`${stack.api}/contact/captcha`)).body;
    const [, a, op, b] = /(\d+) ([+−×]) (\d+)/.exec(question)!;
    const answer = op === '+' ? Number(a) + Number(b) : op === '−' ? Number(a) - Number(b) : Number(a) * Number(b);
    const sent = await call(`${stack.api}/contact`, {
      body: {
        name: 'Mme Obiang',
        email: 'obiang@example.ga',
        subject: 'Partenariat',
        message: 'Bonjour…',
        captcha_id,
        captcha_answer: answer,
      },
    });
    expect(sent.status).toBe(201);
    const admin = (
      await call(`${stack.api}/login`, { body: { email: 'admin@cartable.ga', password: 'Cartable2026!' } })
    ).body.access_token;
    const [contact] = (await call(`${stack.api}/admin/contacts`, { token: admin })).body.data;
    await call(`${stack.api}/admin/contacts/${contact.id}/respond`, {
      token: admin,
      body: { response: 'Écrivez-nous à contact@cartable.ga.' },
    });
    const mail = await stack.mail.waitFor('obiang@example.ga', { subject: 'Re : Partenariat' });
    expect(mail.text).toContain('Écrivez-nous à contact@cartable.ga.');
  });
});

describe('moderation by the book’s owner', () => {
  it('lets the owner, not only an admin, approve a comment on their book through the gateway', async () => {
    const owner = await verifiedMember(stack, 'proprio2');
    const visitor = await verifiedMember(stack, 'visiteur2');
    const bookId = await listBook(stack, owner.token, 'Français 5e');
    const posted = await eventually(async () => {
      const res = await call(`${stack.api}/books/${bookId}/comments`, {
        token: visitor.token,
        body: { content: 'Disponible ?' },
      });
      return res.status === 201 ? res : undefined;
    });
    const byVisitor = await call(`${stack.api}/admin/comments/${posted.body.data.id}/moderate`, {
      method: 'PATCH',
      token: visitor.token,
      body: { status: 'approved' },
    });
    expect(byVisitor.status).toBe(403);
    const byOwner = await call(`${stack.api}/admin/comments/${posted.body.data.id}/moderate`, {
      method: 'PATCH',
      token: owner.token,
      body: { status: 'approved' },
    });
    expect(byOwner.body.message).toBe('Commentaire approuvé avec succès');
  });
});

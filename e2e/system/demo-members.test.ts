import { demoEmail, demoMembers } from '@cartable/contracts';
import { verifiedMember } from '@cartable/stack/members';
import { sharedStack } from '@cartable/stack/shared-stack';
import { call, eventually, type TestStack } from '@cartable/stack/test-stack';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The demo sellers are members like any other: the seed creates them through the events of a
 * person who signed up and confirmed the address, so every service knows their names and their
 * e-mails. The shared stacks carry the demo catalogue, as `npm start` does.
 */
let stack: TestStack;
beforeAll(() => {
  stack = sharedStack();
});

describe('the demo sellers', () => {
  it('are named and mailed when a member writes to one about a listing', async () => {
    const seller = demoMembers[0]!;
    const listings = await eventually(async () => {
      const res = await call(`${stack.api}/users/${seller.id}/books`);
      return res.status === 200 && res.body.data?.length
        ? (res.body.data as Array<{ id: number; title: string }>)
        : undefined;
    });
    const book = listings[0]!;
    const buyer = await verifiedMember(stack, 'acheteur_demo');

    const sent = await call(`${stack.api}/messages`, {
      token: buyer.token,
      body: {
        receiver_id: seller.id,
        book_id: book.id,
        content: 'Bonjour, le manuel est-il encore disponible ?',
        send_email_copy: true,
      },
    });
    expect(sent.status).toBe(201);

    // The seller's own notice, at the demo address, naming the buyer.
    const notice = await stack.mail.waitFor(demoEmail(seller.username), { subject: buyer.name });
    expect(notice.subject).toContain(book.title);
    expect(notice.text).toContain(seller.name.split(' ')[0]);
    // The buyer's copy names the seller, not « un membre ».
    const copy = await stack.mail.waitFor(buyer.email, { subject: 'Copie de votre message' });
    expect(copy.subject).toBe(`Copie de votre message à ${seller.name} – Cartable`);
  });

  it('receive no verification link, having confirmed nothing', async () => {
    const verification = (await stack.mail.list()).filter(
      (mail) => mail.to.some((to) => to.address.endsWith('@demo.cartable.ga')) && mail.subject.startsWith('Confirmez'),
    );
    expect(verification).toEqual([]);
  });
});

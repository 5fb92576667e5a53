import type { EventData } from '@cartable/contracts';
import type { EventHandlers, Transaction } from '@cartable/service-kit';
import { findBook, findMembers, hasBlocked, insertMessage } from '../db/queries.ts';
import { messageSent } from './published.ts';

type Accepted = EventData<'catalog.exchange.accepted'>;

/** The first message of a leg's conversation, from its receiver, marked as written by Cartable. */
function opening(exchange: Accepted, leg: Accepted['legs'][number], names: Map<string, string>) {
  const name = (id: string) => names.get(id) ?? 'un membre';
  if (exchange.kind === 'pair') {
    const back = exchange.legs.find((l) => l.from_user_id === leg.to_user_id);
    return `(Message automatique de Cartable) Bonjour ${name(leg.from_user_id)}, nous avons tous les deux accepté l’échange proposé : je reçois « ${leg.book_title} » de votre part${back ? ` et vous recevez « ${back.book_title} » de la mienne` : ''}. Convenons ici d’un lieu et d’un moment pour l’échange.`;
  }
  const mine = exchange.legs.find((l) => l.from_user_id === leg.to_user_id);
  return `(Message automatique de Cartable) Bonjour ${name(leg.from_user_id)}, nous avons tous les trois accepté l’échange proposé à ${exchange.area} : je reçois « ${leg.book_title} » de votre part${mine ? `, et je donne « ${mine.book_title} » à ${name(mine.to_user_id)}` : ''}. Convenons ici d’un lieu et d’un moment.`;
}

/**
 * An exchange everyone accepted (catalog.exchange.accepted): one conversation per leg, about the
 * listing, between its giver and its receiver, opened by the receiver's automatic first message.
 * A listing gone meanwhile, or a member who blocked the other, opens nothing for that leg. The
 * consumer's processed-events table makes a redelivered event open nothing twice.
 */
async function openConversations(t: Transaction, exchange: Accepted) {
  const tx = t.db;
  const people = await findMembers(tx, [...new Set(exchange.legs.flatMap((l) => [l.from_user_id, l.to_user_id]))]);
  const names = new Map(people.map((p) => [p.id, p.name]));
  for (const leg of exchange.legs) {
    const book = await findBook(tx, leg.book_id, { listedOnly: true });
    if (!book || book.ownerId !== leg.from_user_id) continue;
    if (
      (await hasBlocked(tx, leg.from_user_id, leg.to_user_id)) ||
      (await hasBlocked(tx, leg.to_user_id, leg.from_user_id))
    )
      continue;
    const { message } = await insertMessage(tx, {
      bookId: book.id,
      senderId: leg.to_user_id,
      receiverId: leg.from_user_id,
      content: opening(exchange, leg, names),
    });
    await messageSent(t, {
      message,
      book,
      senderName: names.get(leg.to_user_id) ?? 'Un membre',
      sendEmailCopy: false,
    });
  }
}

export const exchangeConversations: EventHandlers = {
  'catalog.exchange.accepted': (_tx, { data }, t) => {
    if (!t) throw new Error('catalog.exchange.accepted needs the unit of work: it publishes the messages it opens');
    return openConversations(t, data);
  },
};

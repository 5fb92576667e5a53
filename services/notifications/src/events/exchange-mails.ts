import type { EventData } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { inArray } from 'drizzle-orm';
import { members, notices } from '../db/schema.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { exchangeSuggestedText } from '../templates/exchanges.ts';

type Exchange = EventData<'catalog.exchange.suggested'>;

/**
 * An exchange suggestion reaches each member in it: a notice and an e-mail saying what they
 * would give and receive, and from whom. Once all accepted, a notice says the conversations are
 * open (messaging's first messages bring their own notices and e-mails).
 */
async function suggested(tx: Db, eventId: string, exchange: Exchange) {
  const ids = [...new Set(exchange.legs.flatMap((l) => [l.from_user_id, l.to_user_id]))];
  const people = await tx.select().from(members).where(inArray(members.id, ids));
  const name = (id: string) => people.find((p) => p.id === id)?.name ?? 'un membre';
  for (const id of ids) {
    const give = exchange.legs.find((l) => l.from_user_id === id);
    const receive = exchange.legs.find((l) => l.to_user_id === id);
    const mail = {
      kind: exchange.kind,
      area: exchange.area,
      give: give ? { title: give.book_title, to: name(give.to_user_id) } : null,
      receive: receive ? { title: receive.book_title, from: name(receive.from_user_id) } : null,
    };
    const { title, sentence } = exchangeSuggestedText(mail);
    await tx
      .insert(notices)
      .values({
        key: `${eventId}:${id}`,
        userId: id,
        type: 'exchange.suggested',
        title,
        body: sentence,
        link: '/echanges',
      })
      .onConflictDoNothing();
    const member = people.find((p) => p.id === id);
    if (member)
      await recordMail(tx, `${eventId}-${id}`, {
        template: 'exchange-suggested',
        to: member.email,
        data: { name: member.name, ...mail },
      });
  }
}

async function accepted(tx: Db, eventId: string, exchange: Exchange) {
  const ids = [...new Set(exchange.legs.flatMap((l) => [l.from_user_id, l.to_user_id]))];
  await tx
    .insert(notices)
    .values(
      ids.map((id) => ({
        key: `${eventId}:${id}`,
        userId: id,
        type: 'exchange.accepted',
        title: 'Échange accepté par tous',
        body: `Tout le monde a accepté l’échange (${exchange.area}) : vos conversations sont ouvertes dans Messages pour convenir d’un lieu et d’un moment.`,
        link: '/messages',
      })),
    )
    .onConflictDoNothing();
}

export const exchangeMails: EventHandlers = {
  'catalog.exchange.suggested': (tx, { id, data }) => suggested(tx, id, data),
  'catalog.exchange.accepted': (tx, { id, data }) => accepted(tx, id, data),
};

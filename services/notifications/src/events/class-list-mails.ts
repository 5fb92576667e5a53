import { type EventData, proximityLabels } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { eq } from 'drizzle-orm';
import { members } from '../db/schema.ts';
import { unsubscribeTokensOf } from '../db/unsubscribe-tokens.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';
import { classListMatchText } from '../templates/class-lists.ts';
import { classListChangeMails } from './class-list-changes.ts';
import { CLASS_LIST_MAILS_PER_DAY, classListMemberOf, mailsOfLastDay, recordNotice } from './member-notices.ts';

const listLabel = (list: { level_name: string; school_year: string; school_name: string | null }) =>
  `${list.level_name} · ${list.school_year}${list.school_name ? ` · ${list.school_name}` : ''}`;

function where(data: EventData<'catalog.class_list.match_found'>) {
  const city = data.book.city_name;
  if (data.proximity === 'city') return city ? `à ${city}` : proximityLabels.city.toLowerCase();
  if (data.proximity === 'province') return `dans votre province${city ? ` (${city})` : ''}`;
  return city ? `à ${city}` : 'sur Cartable';
}

/**
 * A saved list's missing book was listed nearby: a notice, and an e-mail within the daily cap.
 * The member's « Ma liste » switches decide (and an SMS if they chose it); the mail carries their
 * one-click unsubscribe.
 */
async function matchFound(tx: Db, eventId: string, data: EventData<'catalog.class_list.match_found'>) {
  const member = await classListMemberOf(tx, data.user_id);
  const alert = {
    listLabel: listLabel(data.list),
    itemTitle: data.item.title,
    bookId: data.book.id,
    bookTitle: data.book.title,
    price: data.book.price,
    exchange: data.book.is_exchange_possible,
    where: where(data),
  };
  const { title, sentence } = classListMatchText(alert);
  if (member?.inApp ?? true)
    await recordNotice(tx, eventId, {
      userId: data.user_id,
      type: 'class_list.match_found',
      title,
      body: sentence,
      link: `/books/${data.book.id}`,
    });
  await recordAlertSms(tx, `${eventId}-sms`, {
    userId: data.user_id,
    kind: 'class_list',
    message: {
      template: 'class-list-match',
      data: { bookId: data.book.id, bookTitle: data.book.title, price: data.book.price, where: alert.where },
    },
  });
  if (!member?.emails) return;
  if ((await mailsOfLastDay(tx, member.email, 'class-list-match')) >= CLASS_LIST_MAILS_PER_DAY) return;
  await recordMail(tx, eventId, {
    template: 'class-list-match',
    to: member.email,
    data: {
      name: member.name,
      ...alert,
      unsubscribeToken: (await unsubscribeTokensOf(tx, [data.user_id])).get(data.user_id),
    },
  });
}

async function reviewed(
  tx: Db,
  eventId: string,
  outcome: 'published' | 'rejected',
  data: EventData<'catalog.class_list.published'>,
) {
  if (!data.proposed_by) return;
  const label = listLabel(data);
  await recordNotice(tx, eventId, {
    userId: data.proposed_by,
    type: `class_list.${outcome}`,
    title:
      outcome === 'published' ? 'Votre liste de manuels est publiée' : 'Votre liste de manuels n’a pas été retenue',
    body: outcome === 'published' ? label : `${label}${data.reason ? ` · ${data.reason}` : ''}`,
    link: '/ma-liste',
  });
  await recordAlertSms(tx, `${eventId}-sms`, {
    userId: data.proposed_by,
    kind: 'class_list',
    message: { template: 'class-list-review', data: { listLabel: label, outcome } },
  });
  const [member] = await tx.select().from(members).where(eq(members.id, data.proposed_by));
  if (!member) return;
  await recordMail(tx, eventId, {
    template: 'class-list-review',
    to: member.email,
    data: { name: member.name, listLabel: label, outcome, reason: data.reason, listId: data.list_id },
  });
}

export const classListMails: EventHandlers = {
  'catalog.class_list.match_found': (tx, { id, data }) => matchFound(tx, id, data),
  'catalog.class_list.published': (tx, { id, data }) => reviewed(tx, id, 'published', data),
  'catalog.class_list.rejected': (tx, { id, data }) => reviewed(tx, id, 'rejected', data),
  ...classListChangeMails,
};

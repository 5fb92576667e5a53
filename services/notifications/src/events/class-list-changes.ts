import { classListRefLabel, classListRefPath, type EventData } from '@cartable/contracts';
import type { Db, EventHandlers } from '@cartable/service-kit';
import { unsubscribeTokensOf } from '../db/unsubscribe-tokens.ts';
import { recordMail } from '../queue/outgoing-mails.ts';
import { recordAlertSms } from '../sms/outgoing-sms.ts';
import { classListChangedText, classListWithdrawnText } from '../templates/class-list-changes.ts';
import { CLASS_LIST_MAILS_PER_DAY, classListMemberOf, mailsOfLastDay, recordNotice } from './member-notices.ts';

/**
 * A list a family saved changed: a notice linking to « Ma liste » on that list, and an e-mail and
 * an SMS by the channels chosen for « Ma liste ». Every row is keyed by the event: a redelivered
 * event tells nobody twice.
 */
async function savedChanged(tx: Db, eventId: string, data: EventData<'catalog.class_list.saved_changed'>) {
  const member = await classListMemberOf(tx, data.user_id);
  const { title, sentence } = classListChangedText(data.list, data.changes);
  if (member?.inApp ?? true)
    await recordNotice(tx, eventId, {
      userId: data.user_id,
      type: 'class_list.changed',
      title,
      body: sentence,
      link: classListRefPath(data.list),
    });
  await recordAlertSms(tx, `${eventId}-sms`, {
    userId: data.user_id,
    kind: 'class_list',
    message: {
      template: 'class-list-changed',
      data: { listLabel: classListRefLabel(data.list), path: classListRefPath(data.list) },
    },
  });
  // An administrator withdrawing books one by one makes a version each: past the daily cap the
  // family reads the rest in the bell and on « Ma liste », which always shows the latest version.
  if (!member?.emails || (await mailsOfLastDay(tx, member.email, 'class-list-changed')) >= CLASS_LIST_MAILS_PER_DAY)
    return;
  await recordMail(tx, eventId, {
    template: 'class-list-changed',
    to: member.email,
    data: {
      name: member.name,
      list: data.list,
      changes: data.changes,
      unsubscribeToken: (await unsubscribeTokensOf(tx, [data.user_id])).get(data.user_id),
    },
  });
}

/**
 * A seller's available listing holds a book withdrawn from a list: always a notice (it is about
 * their own listing), and an e-mail and an SMS by the channels chosen for « Ma liste ».
 */
async function listingWithdrawn(tx: Db, eventId: string, data: EventData<'catalog.class_list.listing_withdrawn'>) {
  const member = await classListMemberOf(tx, data.user_id);
  const { title, sentence } = classListWithdrawnText(data.list, data.book.title);
  await recordNotice(tx, eventId, {
    userId: data.user_id,
    type: 'class_list.listing_withdrawn',
    title,
    body: sentence,
    link: `/books/${data.book.id}`,
  });
  await recordAlertSms(tx, `${eventId}-sms`, {
    userId: data.user_id,
    kind: 'class_list',
    message: {
      template: 'class-list-withdrawn',
      data: { listLabel: classListRefLabel(data.list), bookId: data.book.id, bookTitle: data.book.title },
    },
  });
  if (!member?.emails) return;
  await recordMail(tx, eventId, {
    template: 'class-list-withdrawn',
    to: member.email,
    data: {
      name: member.name,
      list: data.list,
      bookId: data.book.id,
      bookTitle: data.book.title,
      unsubscribeToken: (await unsubscribeTokensOf(tx, [data.user_id])).get(data.user_id),
    },
  });
}

export const classListChangeMails: EventHandlers = {
  'catalog.class_list.saved_changed': (tx, { id, data }) => savedChanged(tx, id, data),
  'catalog.class_list.listing_withdrawn': (tx, { id, data }) => listingWithdrawn(tx, id, data),
};

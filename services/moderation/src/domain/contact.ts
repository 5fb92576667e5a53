import { randomInt } from 'node:crypto';
import { type Captcha, type Contact, type ContactStatus, type ContactSubmission, messages } from '@cartable/contracts';
import { type Db, notFound, unprocessable } from '@cartable/service-kit';
import {
  type ContactRow,
  contactCountsByStatus,
  contactFilter,
  contactPage,
  countContacts,
  deleteContacts,
  findContact,
  insertCaptcha,
  insertContact,
  updateContact,
  useCaptcha,
} from '../db/queries.ts';
import type { ModerationDeps } from '../deps.ts';
import { contactAnswered } from '../events/published.ts';

/**
 * The contact form and its back office (SPEC.md sections 2, 5 and 7): the server issues an
 * arithmetic question, checks it once, and administrators read, answer (by e-mail) and file
 * the messages. The rules live here, free of HTTP.
 */

const k = messages.contact;
export const CAPTCHA_TTL_MS = 15 * 60_000;

/** SPEC.md section 5: add, subtract the smaller from the larger, or multiply small numbers. */
export function newQuestion() {
  const a = randomInt(1, 11);
  const b = randomInt(1, 11);
  switch (randomInt(0, 3)) {
    case 0:
      return { question: `Combien font ${a} + ${b} ?`, answer: a + b };
    case 1:
      return {
        question: `Combien font ${Math.max(a, b)} − ${Math.min(a, b)} ?`,
        answer: Math.max(a, b) - Math.min(a, b),
      };
    default:
      return { question: `Combien font ${a} × ${b} ?`, answer: a * b };
  }
}

export const toContact = (row: ContactRow): Contact => ({
  id: row.id,
  name: row.name,
  email: row.email,
  subject: row.subject,
  message: row.message,
  status: row.status,
  response: row.response,
  responded_at: row.respondedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

/** A new question, kept (with its answer) for 15 minutes. */
export async function issueCaptcha(db: Db): Promise<Captcha> {
  const { question, answer } = newQuestion();
  const id = await insertCaptcha(db, answer, new Date(Date.now() + CAPTCHA_TTL_MS));
  return { captcha_id: id, question };
}

/** The question is used up whatever the answer: a wrong guess means a new question. */
export async function submitContact(db: Db, form: ContactSubmission) {
  const { captcha_id, captcha_answer, ...message } = form;
  const captcha = await useCaptcha(db, captcha_id);
  if (!captcha || captcha.answer !== captcha_answer)
    throw unprocessable({ captcha_answer: [k.captchaWrong] }, k.captchaWrong);
  await insertContact(db, message);
  return { message: k.sent };
}

export async function listContacts(
  db: Db,
  { status, search, page, per_page }: { status?: ContactStatus; search?: string; page: number; per_page: number },
) {
  const where = contactFilter(status, search);
  const total = await countContacts(db, where);
  const rows = await contactPage(db, where, page, per_page);
  return {
    data: rows.map(toContact),
    meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / per_page)), total },
  };
}

export async function contactStats(db: Db) {
  const rows = await contactCountsByStatus(db);
  const of = (s: ContactStatus) => rows.find((r) => r.status === s)?.n ?? 0;
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    new: of('new'),
    read: of('read'),
    answered: of('answered'),
    archived: of('archived'),
  };
}

async function existing(db: Db, id: string) {
  const row = await findContact(db, id);
  if (!row) throw notFound(k.notFound);
  return row;
}

/** An administrator opens a message: a new one becomes read. */
export async function openContact(db: Db, id: string) {
  let row = await existing(db, id);
  if (row.status === 'new') row = (await updateContact(db, row.id, { status: 'read' })) ?? row;
  return toContact(row);
}

/** The answer is saved and e-mailed (notifications, from the event that commits with it). */
export async function answerContact({ uow }: Pick<ModerationDeps, 'uow'>, id: string, response: string) {
  const row = await existing(uow.db, id);
  const saved = await uow.run(async (t) => {
    const updated = await updateContact(t.db, row.id, { response, respondedAt: new Date(), status: 'answered' });
    await contactAnswered(t, row, response);
    return updated!;
  });
  return { message: k.answered, data: toContact(saved) };
}

export async function setContactStatus(db: Db, id: string, status: ContactStatus) {
  await existing(db, id);
  return toContact((await updateContact(db, id, { status }))!);
}

export async function deleteContact(db: Db, id: string) {
  await existing(db, id);
  await deleteContacts(db, [id]);
  return { message: k.deleted };
}

export async function deleteManyContacts(db: Db, ids: string[]) {
  return { deleted: (await deleteContacts(db, ids)).length };
}

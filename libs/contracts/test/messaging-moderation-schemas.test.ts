import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  commentPageSchema,
  commentRequestSchema,
  contactRequestSchema,
  conversationThreadSchema,
  eventSchemas,
  messages,
  sendMessageRequestSchema,
} from '../src/index.ts';

const errorsOf = (result: { success: boolean; error?: { flatten(): { fieldErrors: object } } }) =>
  result.success ? {} : result.error!.flatten().fieldErrors;

describe('messages (services/messaging/API.md)', () => {
  const base = { receiver_id: randomUUID(), book_id: '42', content: '  Bonjour  ' };

  it('trims the content, reads the book id from a form and copies no e-mail unless asked', () => {
    expect(sendMessageRequestSchema.parse(base)).toEqual({
      ...base,
      book_id: 42,
      content: 'Bonjour',
      send_email_copy: false,
    });
  });

  it('refuses a blank message and one over 2000 characters, in French', () => {
    expect(errorsOf(sendMessageRequestSchema.safeParse({ ...base, content: '   ' }))).toEqual({
      content: [messages.messaging.blank],
    });
    expect(errorsOf(sendMessageRequestSchema.safeParse({ ...base, content: 'a'.repeat(2001) }))).toEqual({
      content: [messages.messaging.tooLong],
    });
  });

  it('describes a thread before its first message (no conversation id yet)', () => {
    const other = { id: randomUUID(), name: 'Membre', username: '', profile_image: null };
    const empty = {
      conversation: { id: null, book: null, other_user: other },
      data: [],
      meta: { current_page: 1, last_page: 1, total: 0 },
    };
    expect(conversationThreadSchema.parse(empty)).toEqual(empty);
  });
});

describe('comments (services/moderation/API.md)', () => {
  it('says an empty comment is empty, not also too short', () => {
    expect(errorsOf(commentRequestSchema.safeParse({ content: ' ' }))).toEqual({ content: [messages.comments.empty] });
    expect(errorsOf(commentRequestSchema.safeParse({ content: 'a' }))).toEqual({
      content: [messages.comments.tooShort],
    });
    expect(errorsOf(commentRequestSchema.safeParse({ content: 'a'.repeat(501) }))).toEqual({
      content: [messages.comments.tooLong],
    });
  });

  it('has UUID ids, as the API sends them, and replies nested at any depth', () => {
    const comment = (replies: unknown[] = []) => ({
      id: randomUUID(),
      content: 'Encore disponible ?',
      parent_id: null,
      created_at: '2026-01-10T08:00:00.000Z',
      updated_at: '2026-01-10T08:00:00.000Z',
      status: 'approved',
      user: { id: randomUUID(), name: 'Awa', profile_image: null },
      can_edit: false,
      can_delete: false,
      can_moderate: false,
      replies,
    });
    const page = { data: [comment([comment([comment()])])], meta: { current_page: 1, last_page: 1, total: 1 } };
    expect(commentPageSchema.parse(page)).toEqual(page);
    expect(commentPageSchema.safeParse({ ...page, data: [{ ...comment(), id: 12 }] }).success).toBe(false);
    expect(commentRequestSchema.safeParse({ content: 'Merci !', parent_id: 3 }).success).toBe(false);
  });

  it('keeps the statuses of the API and of its events the same', () => {
    const status = (type: 'moderation.comment.created' | 'moderation.comment.moderated', value: string) =>
      eventSchemas[type].shape.status.safeParse(value).success;
    expect(status('moderation.comment.created', 'pending')).toBe(true);
    expect(status('moderation.comment.moderated', 'pending')).toBe(false);
  });
});

describe('contact form (SPEC.md section 5)', () => {
  const form = {
    name: 'Awa',
    email: ' Awa@Example.GA ',
    subject: 'Question',
    message: 'Bonjour',
    captcha_id: randomUUID(),
    captcha_answer: '12',
  };

  it('lower-cases the address and reads the answer as a number', () => {
    expect(contactRequestSchema.parse(form)).toMatchObject({ email: 'awa@example.ga', captcha_answer: 12 });
  });

  it('asks for every field in French, and for the arithmetic answer', () => {
    expect(
      errorsOf(contactRequestSchema.safeParse({ ...form, name: '', subject: '', captcha_answer: 'douze' })),
    ).toEqual({
      name: [messages.contact.nameRequired],
      subject: [messages.contact.subjectRequired],
      captcha_answer: [messages.contact.captchaWrong],
    });
  });
});

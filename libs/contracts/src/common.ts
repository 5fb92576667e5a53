import { z } from 'zod';

/** Body of every error answer: a French message, and field errors where they apply. */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Query-string integer (ids, pages): "12" → 12, rejects "1.5" and "abc". */
export const queryInt = z.coerce.number().int();

/** Query-string boolean: accepts true/false/1/0 as the browser sends them. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** `{ message }`: the answer of a call that only says what it did, in French. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Page counters of the `{ data, meta }` lists (comments, messages, contacts, users). */
export const pageMetaSchema = z.object({
  current_page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

/** A numeric id in a path (`/books/{id}`): "12" → 12. */
export const idParamsSchema = z.object({ id: z.coerce.number().int().positive() });
/** A UUID in a path (`/admin/contacts/{id}`, `/roles/{id}`). */
export const uuidParamsSchema = z.object({ id: z.string().uuid() });

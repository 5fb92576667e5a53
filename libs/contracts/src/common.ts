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

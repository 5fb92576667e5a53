import { z } from 'zod';
import { pageMetaSchema, safeText } from './common.ts';
import {
  LISTING_ONLY_REPORT_REASONS,
  type ReportReason,
  reportDecisions,
  reportReasons,
  reportStatuses,
  reportTargetTypes,
} from './labels.ts';

/**
 * Reports and blocks. A member reports a listing, a
 * member, a comment (moderation's API) or a message they received (messaging's API, which checks
 * they received it and passes its text on); reports wait in the back office's « Signalements »
 * queue. A member blocks another in messaging: the blocked member can no longer write to them
 * nor see their phone and e-mail.
 */

const reasonField = z.enum(reportReasons, { error: 'Choisissez une raison.' });
const detailsField = safeText().trim().max(500, 'Les précisions ne peuvent pas dépasser 500 caractères.').optional();
/** « Autre » needs a word of explanation. */
const explained = <T extends { reason: ReportReason; details?: string | undefined }>(value: T) =>
  value.reason !== 'autre' || (value.details?.length ?? 0) >= 5;
const explainedMessage = { path: ['details'], message: 'Précisez la raison (au moins 5 caractères).' };
/** A reason about a listing (« Ce livre appartient à une école ») is for a listing only. */
const forItsTarget = (value: { reason: ReportReason; target_type?: string }) =>
  value.target_type === 'book' || !LISTING_ONLY_REPORT_REASONS.includes(value.reason);
const forItsTargetMessage = { path: ['reason'], message: 'Cette raison ne concerne qu’une annonce.' };

export const reportRequestSchema = z
  .object({
    target_type: z.enum(['book', 'user', 'comment'], { error: 'Ce contenu ne peut pas être signalé ainsi.' }),
    target_id: safeText().trim().min(1).max(64),
    reason: reasonField,
    details: detailsField,
  })
  .refine(explained, explainedMessage)
  .refine(forItsTarget, forItsTargetMessage);
export type ReportRequest = z.input<typeof reportRequestSchema>;

/** POST /messages/{id}/report (messaging). */
export const messageReportRequestSchema = z
  .object({ reason: reasonField, details: detailsField })
  .refine(explained, explainedMessage)
  .refine(forItsTarget, forItsTargetMessage);

export const reportSchema = z.object({
  id: z.string().uuid(),
  target_type: z.enum(reportTargetTypes),
  target_id: z.string(),
  /** What the target was when reported: a title, a name, the text of a comment or message. */
  target_label: z.string(),
  /** The member responsible for the target (the listing's owner, the comment's author…). */
  target_owner_id: z.string().uuid().nullable(),
  target_owner_name: z.string().nullable(),
  reason: z.enum(reportReasons),
  details: z.string().nullable(),
  status: z.enum(reportStatuses),
  decision: z.enum(reportDecisions).nullable(),
  note: z.string().nullable(),
  reporter: z.object({ id: z.string().uuid(), name: z.string() }),
  /** Open reports about the same target, this one included. */
  reports_on_target: z.number().int(),
  created_at: z.string(),
  handled_at: z.string().nullable(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportCreatedResponseSchema = z.object({
  message: z.string(),
  report: z.object({ id: z.string().uuid() }),
});
export const reportListQuerySchema = z.object({
  status: z.enum(reportStatuses).optional(),
  target_type: z.enum(reportTargetTypes).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
export const reportListResponseSchema = z.object({
  data: z.array(reportSchema),
  meta: pageMetaSchema,
  open: z.number().int(),
});
export const reportResponseSchema = z.object({ report: reportSchema });
export const reportResolveRequestSchema = z.object({
  decision: z.enum(reportDecisions, { error: 'Choisissez une décision.' }),
  note: safeText().trim().max(500).optional(),
});
/** `status`: `applying` while another service applies the decision, else where the reports now stand. */
export const reportResolveResponseSchema = z.object({
  message: z.string(),
  resolved: z.number().int(),
  status: z.enum(reportStatuses),
});

export const blockRequestSchema = z.object({ user_id: z.string().uuid({ message: 'Membre inconnu.' }) });
export const blockedMemberSchema = z.object({ id: z.string().uuid(), name: z.string(), blocked_at: z.string() });
export const blocksResponseSchema = z.object({ data: z.array(blockedMemberSchema) });
export const blockStatusResponseSchema = z.object({ blocked: z.boolean(), blocks_me: z.boolean() });

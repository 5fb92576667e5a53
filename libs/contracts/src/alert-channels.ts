import { z } from 'zod';
import { type AlertChannelName, type AlertKind, alertKinds, fixedAlertChannels } from './alert-kinds.ts';

export * from './alert-kinds.ts';

/**
 * The channels of a member's alerts (notifications): a verified phone for SMS, and per kind of
 * alert the channels it comes through (e-mail, SMS, in-app).
 */

export const alertChannelMessages = {
  phoneInvalid: 'Numéro de téléphone invalide (ex. 077 12 34 56 ou +241 77 12 34 56).',
  phoneNotMobile: 'Ce numéro ne peut pas recevoir de SMS : donnez un numéro de mobile.',
  phoneTaken: 'Ce numéro est déjà vérifié sur un autre compte.',
  phoneSame: 'Ce numéro est déjà vérifié sur votre compte.',
  codeSent: 'Un code à 6 chiffres vous a été envoyé par SMS.',
  codeFormat: 'Le code est fait de 6 chiffres.',
  codeInvalid: 'Code incorrect.',
  codeExpired: 'Ce code a expiré ou a été utilisé : demandez-en un nouveau.',
  codeTooManyAttempts: 'Trop d’essais : demandez un nouveau code.',
  codeWait: 'Attendez une minute avant de demander un nouveau code.',
  tooManyCodesNumber: 'Trop de codes envoyés à ce numéro aujourd’hui : réessayez demain.',
  tooManyCodesMember: 'Trop de codes demandés aujourd’hui : réessayez demain.',
  phoneVerified: 'Votre numéro est vérifié : vous pouvez recevoir des alertes par SMS.',
  phoneRemoved: 'Numéro supprimé : vous ne recevrez plus de SMS.',
  noPhone: 'Vérifiez d’abord un numéro de téléphone pour recevoir des SMS.',
  smsUnavailable: 'L’envoi de SMS n’est pas disponible pour le moment.',
  channelsSaved: 'Canaux d’alerte enregistrés',
  choiceInvalid: 'Choix invalide (oui ou non)',
  channelFixed: 'Ces alertes arrivent toujours par ce canal.',
  webhookRefused: 'Notification du fournisseur de SMS refusée.',
} as const;
const m = alertChannelMessages;

const choice = z.boolean({ error: m.choiceInvalid });
export const alertChannelChoiceSchema = z.object({ email: choice, sms: choice, in_app: choice });
export type AlertChannelChoice = z.infer<typeof alertChannelChoiceSchema>;
export const alertChannelsSchema = z.object(
  Object.fromEntries(alertKinds.map((k) => [k, alertChannelChoiceSchema])) as Record<
    AlertKind,
    typeof alertChannelChoiceSchema
  >,
);
export type AlertChannels = z.infer<typeof alertChannelsSchema>;

/** PUT /notifications/channels: any kinds, any channels of them; the rest stays. */
export const alertChannelsRequestSchema = z
  .object(
    Object.fromEntries(alertKinds.map((k) => [k, alertChannelChoiceSchema.partial()])) as Record<
      AlertKind,
      ReturnType<typeof alertChannelChoiceSchema.partial>
    >,
  )
  .partial()
  .strict()
  .superRefine((value, ctx) => {
    for (const [kind, channels] of Object.entries(fixedAlertChannels) as Array<[AlertKind, AlertChannelName[]]>)
      for (const channel of channels)
        if (value[kind]?.[channel] === false)
          ctx.addIssue({ code: 'custom', path: [kind, channel], message: m.channelFixed });
  });
export type AlertChannelsRequest = z.input<typeof alertChannelsRequestSchema>;

/** The member's alert phone as they see it: the number is theirs, shown whole. */
export const alertPhoneSchema = z.object({
  /** E.164 (+24177123456), or null when none is verified. */
  number: z.string().nullable(),
  /** As a person reads it (+241 77 12 34 56). */
  display: z.string().nullable(),
  verified_at: z.string().nullable(),
  /** The member answered « STOP » by SMS: no SMS until they verify a number again. */
  stopped: z.boolean(),
  /** A code was sent to this number and waits (verification in progress), or null. */
  pending: z.string().nullable(),
});
export type AlertPhone = z.infer<typeof alertPhoneSchema>;

export const alertChannelsResponseSchema = z.object({
  message: z.string().optional(),
  channels: alertChannelsSchema,
  phone: alertPhoneSchema,
  /** SMS a member may receive in 24 hours, whatever the kinds. */
  sms_per_day: z.number().int(),
  /** Libreville time: an SMS due in between waits for the morning; null: none. */
  quiet_hours: z.object({ from: z.string(), to: z.string() }).nullable(),
});
export type AlertChannelsResponse = z.infer<typeof alertChannelsResponseSchema>;

/** POST /notifications/phone: the number to verify (Gabon by default: 077 12 34 56 is +241 77 12 34 56). */
export const phoneRequestSchema = z.object({
  number: z.string({ error: m.phoneInvalid }).trim().min(6, m.phoneInvalid).max(24, m.phoneInvalid),
});
export type PhoneRequest = z.input<typeof phoneRequestSchema>;
/** POST /notifications/phone/verify */
export const phoneVerifyRequestSchema = z.object({
  code: z
    .string({ error: m.codeFormat })
    .trim()
    .regex(/^\d{6}$/, m.codeFormat),
});
export type PhoneVerifyRequest = z.input<typeof phoneVerifyRequestSchema>;
export const phoneResponseSchema = z.object({ message: z.string(), phone: alertPhoneSchema });
export type PhoneResponse = z.infer<typeof phoneResponseSchema>;

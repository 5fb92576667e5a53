import { z } from 'zod';
import { messages } from './messages.ts';

const m = messages.auth;

/** Words no name or username may contain (SPEC.md section 5). */
export const reservedWords = [
  'admin',
  'administrator',
  'useradmin',
  'superadmin',
  'root',
  'moderator',
  'mod',
  'support',
] as const;

const containsReserved = (value: string) => {
  const v = value.toLowerCase();
  // A name is made of words; a username is one token: both are checked word by word and as a whole.
  const words = v.split(/[^a-z0-9à-ÿ]+/i).filter(Boolean);
  return reservedWords.some((r) => words.includes(r) || v.replace(/[^a-z0-9]/g, '') === r);
};

export const emailSchema = z
  .string({ error: m.emailRequired })
  .trim()
  .min(1, m.emailRequired)
  .email(m.emailInvalid)
  .toLowerCase();

export const passwordSchema = z
  .string({ error: m.passwordMissing })
  .min(1, m.passwordMissing)
  .min(8, m.passwordMin)
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p), m.passwordStrength);

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: m.passwordRequired }).min(1, m.passwordRequired),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = z
  .object({
    name: z
      .string({ error: m.nameRequired })
      .trim()
      .min(1, m.nameRequired)
      .min(2, m.nameMin)
      .max(100)
      .refine((v) => !containsReserved(v), m.nameReserved),
    email: emailSchema,
    username: z
      .string({ error: m.usernameRequired })
      .trim()
      .min(1, m.usernameRequired)
      .min(3, m.usernameMin)
      .max(20, m.usernameMax)
      .regex(/^[A-Za-z0-9_]+$/, m.usernameChars)
      .refine((v) => !containsReserved(v), m.usernameReserved),
    password: passwordSchema,
    password_confirmation: z.string({ error: m.confirmationRequired }).min(1, m.confirmationRequired),
    country_id: z.coerce.number({ error: m.countryRequired }).int(m.countryRequired).positive(m.countryRequired),
    city_id: z.coerce.number({ error: m.cityRequired }).int(m.cityRequired).positive(m.cityRequired),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: m.confirmationMismatch,
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const permissionSchema = z.object({ slug: z.string() });
export const roleSchema = z.object({ slug: z.string(), name: z.string(), permissions: z.array(permissionSchema) });

/** The user as the browser stores it (SPEC.md section 3). */
export const userSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  profile_image: z.string().nullable(),
  email_verified: z.boolean(),
  is_admin: z.boolean(),
  roles: z.array(roleSchema),
  permissions: z.array(permissionSchema),
  country_id: z.number().int().nullable(),
  city_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const loginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  user: userSchema,
  two_factor_required: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const registerResponseSchema = z.object({ message: z.string(), user: userSchema });
export const currentUserResponseSchema = z.object({ user: userSchema });

/** Claims carried by every access token (ARCHITECTURE.md "Identity and permissions"). */
export const accessClaimsSchema = z.object({
  sub: z.string().uuid(),
  jti: z.string(),
  exp: z.number(),
  email_verified: z.boolean(),
  is_admin: z.boolean(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

/** Permission slugs named by SPEC.md section 6. */
export const permissionSlugs = [
  'books.update.any',
  'users.view.any',
  'categories.update',
  'user_subscriptions.manage',
  'roles.view',
  'reports.view',
  'cities.manage',
  'banners.manage',
  'payments.manage',
] as const;
export type PermissionSlug = (typeof permissionSlugs)[number];
export const WILDCARD_PERMISSION = '*';

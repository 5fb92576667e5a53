import { z } from 'zod';
import { dbInt, multilineText, pageMetaSchema, positiveId, queryBool, safeText } from './common.ts';
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
  .min(1, { message: m.emailRequired, abort: true })
  .email(m.emailInvalid)
  .toLowerCase();

export const passwordSchema = z
  .string({ error: m.passwordMissing })
  .min(1, { message: m.passwordMissing, abort: true })
  .min(8, m.passwordMin)
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /\d/.test(p), m.passwordStrength);

export const twoFactorCodeSchema = z
  .string({ error: m.codeRequired })
  .trim()
  .regex(/^\d{6}$/, m.codeRequired);

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: m.passwordRequired }).min(1, { message: m.passwordRequired, abort: true }),
  /** Second step: the 6-digit code e-mailed after the password was accepted. */
  code: twoFactorCodeSchema.optional(),
  /** Or one of the recovery codes shown when two-factor was turned on. */
  recovery_code: z.string().trim().min(6, m.recoveryCodeInvalid).max(40, m.recoveryCodeInvalid).optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = z
  .object({
    name: safeText({ error: m.nameRequired })
      .trim()
      .min(1, { message: m.nameRequired, abort: true })
      .min(2, m.nameMin)
      .max(100, m.nameMax)
      .refine((v) => !containsReserved(v), m.nameReserved),
    email: emailSchema,
    username: z
      .string({ error: m.usernameRequired })
      .trim()
      .min(1, { message: m.usernameRequired, abort: true })
      .min(3, m.usernameMin)
      .max(20, m.usernameMax)
      .regex(/^[A-Za-z0-9_]+$/, m.usernameChars)
      .refine((v) => !containsReserved(v), m.usernameReserved),
    password: passwordSchema,
    password_confirmation: z
      .string({ error: m.confirmationRequired })
      .min(1, { message: m.confirmationRequired, abort: true }),
    country_id: positiveId(m.countryRequired),
    city_id: positiveId(m.cityRequired),
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

/**
 * `verification_check`: the proof that this browser signed up with the address (or knows its
 * password), which POST /check-email-verification asks for before it tells whether it is verified.
 */
export const registerResponseSchema = z.object({
  message: z.string(),
  user: userSchema,
  verification_check: z.string(),
});
export const currentUserResponseSchema = z.object({ user: userSchema });

/** Claims carried by every access token (ARCHITECTURE.md "Identity and permissions"). */
export const accessClaimsSchema = z.object({
  sub: z.string().uuid(),
  jti: z.string(),
  exp: z.number(),
  /** The user's token version when issued; a password change bumps it, refusing older tokens. */
  ver: z.number().int().default(0),
  /** When the token was issued (seconds): rights changed since then are read afresh. */
  iat: z.number().optional(),
  email_verified: z.boolean(),
  is_admin: z.boolean(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;
export type ClaimsToSign = Omit<AccessClaims, 'exp' | 'jti' | 'iat'>;

/**
 * A member's rights as they are now, with when they last changed (epoch seconds): a token
 * issued before that moment carries old rights, and these replace them (a promotion reaches an
 * open session at once; losses also end the member's tokens).
 */
export const currentRightsSchema = z.object({
  changed_at: z.number(),
  is_admin: z.boolean(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
});
export type CurrentRights = z.infer<typeof currentRightsSchema>;

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
  'lists.manage',
] as const;
export type PermissionSlug = (typeof permissionSlugs)[number];
export const WILDCARD_PERMISSION = '*';

/** Same rules and messages as the reset form (SPEC.md section 5). */
const confirmedPassword = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object({
      ...shape,
      password: passwordSchema,
      password_confirmation: z
        .string({ error: m.confirmationRequired })
        .min(1, { message: m.confirmationRequired, abort: true }),
    })
    .refine(
      (v) => (v as { password: string }).password === (v as { password_confirmation: string }).password_confirmation,
      {
        path: ['password_confirmation'],
        message: m.confirmationMismatch,
      },
    );

export const emailRequestSchema = z.object({
  email: z
    .string({ error: m.emailAddressRequired })
    .trim()
    .min(1, { message: m.emailAddressRequired, abort: true })
    .email(m.emailInvalid)
    .toLowerCase(),
});
export const tokenEmailSchema = z.object({ token: z.string().trim().min(1).max(200), email: emailSchema });
export const resetPasswordRequestSchema = confirmedPassword({
  token: z.string().trim().min(1).max(200),
  email: emailSchema,
});
export const changePasswordRequestSchema = confirmedPassword({
  current_password: z
    .string({ error: m.currentPasswordRequired })
    .min(1, { message: m.currentPasswordRequired, abort: true }),
});
export const passwordOnlySchema = z.object({
  password: z.string({ error: m.passwordMissing }).min(1, { message: m.passwordMissing, abort: true }),
});

export const twoFactorTypes = ['login', 'enable', 'disable'] as const;
export const twoFactorConfirmSchema = z.object({ code: twoFactorCodeSchema });
export const twoFactorDisableSchema = z.object({
  password: z.string({ error: m.passwordMissing }).min(1, { message: m.passwordMissing, abort: true }),
  code: twoFactorCodeSchema.optional(),
});
export const twoFactorResendSchema = z.object({ email: emailSchema, type: z.enum(twoFactorTypes).default('login') });

/** Gabonese and international numbers: digits, spaces, +, dots and dashes, 8 to 15 digits. */
const phoneSchema = z
  .string()
  .trim()
  .refine(
    (v) => /^\+?[\d\s.-]+$/.test(v) && v.replace(/\D/g, '').length >= 8 && v.replace(/\D/g, '').length <= 15,
    m.phoneInvalid,
  );

export const profileUpdateSchema = z.object({
  name: registerRequestSchema.shape.name,
  username: registerRequestSchema.shape.username,
  phone: phoneSchema
    .nullable()
    .optional()
    .or(z.literal('').transform(() => null)),
  bio: multilineText().trim().max(500, m.bioMax).nullable().optional(),
  show_email: z.boolean().default(false),
  show_phone: z.boolean().default(false),
  country_id: registerRequestSchema.shape.country_id,
  city_id: registerRequestSchema.shape.city_id,
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** The full profile of the signed-in user (GET /user/profile). */
export const profileSchema = userSchema.extend({
  phone: z.string().nullable(),
  bio: z.string().nullable(),
  show_email: z.boolean(),
  show_phone: z.boolean(),
  two_factor_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type Profile = z.infer<typeof profileSchema>;

/** A member as anyone may see them (/profile/{userId}): contact details only when shown. */
export const publicProfileSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  username: z.string(),
  profile_image: z.string().nullable(),
  bio: z.string().nullable(),
  country_id: z.number().int().nullable(),
  city_id: z.number().int().nullable(),
  created_at: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
});

export { MIN_PASSWORD_SCORE, passwordStrength } from './password.ts';

// ── answers of auth's routes (services/auth/API.md) ─────────────────────────────────────────

/** POST /login when two-factor is on and no code came: a code was e-mailed, ask for it. */
export const twoFactorChallengeSchema = z.object({
  two_factor_required: z.literal(true),
  code_sent: z.boolean(),
  message: z.string(),
  email: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;
export const loginAnswerSchema = z.union([loginResponseSchema, twoFactorChallengeSchema]);

export const verifyEmailResponseSchema = z.object({ message: z.string(), verified: z.literal(true) });
export const emailVerifiedResponseSchema = z.object({ verified: z.boolean() });
/** POST /password-check: the forms' meter asks whether a password is one everybody tries (never stored). */
export const passwordCheckRequestSchema = z.object({
  password: z.string({ error: m.passwordRequired }).max(200, { message: m.passwordTooLong }),
});
export const passwordCheckResponseSchema = z.object({ common: z.boolean() });
export type PasswordCheckResponse = z.infer<typeof passwordCheckResponseSchema>;
/** POST /check-email-verification: the address, and the proof the sign-up or the login gave. */
export const checkEmailVerificationRequestSchema = emailRequestSchema.extend({
  verification_check: z.string().max(200).optional(),
});
export const validateResetTokenResponseSchema = z.object({ valid: z.literal(true), email: z.string() });
/** PUT /user/change-password: every other session ends, this one gets a fresh token. */
export const changePasswordResponseSchema = z.object({ message: z.string(), access_token: z.string() });

export const profileResponseSchema = z.object({ profile: profileSchema });
export const profileUpdateResponseSchema = z.object({ message: z.string(), profile: profileSchema });

export const userStatsSchema = z.object({
  books_total: z.number().int(),
  books_available: z.number().int(),
  books_sold: z.number().int(),
  conversations: z.number().int(),
  messages_received: z.number().int(),
  comments: z.number().int(),
});
export type UserStats = z.infer<typeof userStatsSchema>;
export const userStatsResponseSchema = z.object({ stats: userStatsSchema });

export const activitySchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  link: z.string().nullable(),
  occurred_at: z.string(),
});
export type Activity = z.infer<typeof activitySchema>;
export const recentActivityQuerySchema = z.object({ limit: dbInt().min(1).max(50).default(10) });
export const recentActivityResponseSchema = z.object({ activities: z.array(activitySchema) });

export const publicProfileParamsSchema = z.object({ userId: z.string().uuid() });
export const publicProfileResponseSchema = z.object({ user: publicProfileSchema });

export const twoFactorEnableResponseSchema = z.object({ message: z.string(), code_sent: z.literal(true) });
/** Shown once: each code works once at login. */
export const recoveryCodesResponseSchema = z.object({ message: z.string(), recovery_codes: z.array(z.string()) });

/** GET /.well-known/jwks.json: auth's public keys (ES256), for the gateway and the services. */
export const jwksResponseSchema = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional(), alg: z.string().optional() })),
});

/** POST /internal/token-status (the gateway, never public). */
/** auth's answer on a token: revoked or not, and the member's rights if they changed since it was issued. */
export const tokenStatusResponseSchema = z.object({ revoked: z.boolean(), rights: currentRightsSchema.optional() });

// ── users, roles and permissions (SPEC.md section 6) ──────────────────────────────────────────

/** A role or permission slug: `books.update.any`, or the wildcard `*`. */
export const slugSchema = z
  .string()
  .trim()
  .regex(/^([a-z0-9_]+(\.[a-z0-9_]+)*|\*)$/, m.slugInvalid);

export const checkAdminResponseSchema = z.object({ is_admin: z.boolean() });

/** A calendar day (YYYY-MM-DD) of a filter. */
const dayQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, m.dateInvalid)
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), m.dateInvalid);

export const userStatuses = ['active', 'deactivated'] as const;
export const userSorts = ['created_at', 'name'] as const;

/** GET /users/all: search, filters, sort and page (the back office keeps them in its URL). */
export const userListQuerySchema = z
  .object({
    page: dbInt().min(1).default(1),
    per_page: dbInt().min(1).max(100).default(20),
    search: safeText().trim().max(100).optional(),
    verified: queryBool.optional(),
    admin: queryBool.optional(),
    role: slugSchema.optional(),
    /** Joined on or after this day, on or before that day (both included, UTC). */
    created_from: dayQuery.optional(),
    created_to: dayQuery.optional(),
    status: z.enum(userStatuses).optional(),
    sort: z.enum(userSorts).default('name'),
    direction: z.enum(['asc', 'desc']).optional(),
  })
  .refine((q) => !q.created_from || !q.created_to || q.created_from <= q.created_to, {
    path: ['created_to'],
    message: m.dateRange,
  });
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** A user as the back office sees them: whether and when the account was deactivated. */
export const adminUserSchema = userSchema.extend({ deactivated_at: z.string().nullable() });
export type AdminUser = z.infer<typeof adminUserSchema>;
export const userListResponseSchema = z.object({
  data: z.array(adminUserSchema),
  meta: pageMetaSchema.extend({ per_page: z.number() }),
});

/** One line of the administrators' trail (who did what to whom, when). */
export const auditEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  actor: z.object({ id: z.string(), name: z.string() }).nullable(),
  target: z.object({ id: z.string(), name: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** Newest first; `next_cursor` fetches the older ones (null when there are none). */
export const auditPageSchema = z.object({ data: z.array(auditEntrySchema), next_cursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;
export const auditQuerySchema = z.object({
  cursor: z.string().trim().max(200).optional(),
  limit: dbInt().min(1).max(100).default(20),
});

/** GET /admin/users/:id: the member, their counters and activity, and the trail about them. */
export const adminUserDetailResponseSchema = z.object({
  user: adminUserSchema.extend({
    deactivation_reason: z.string().nullable(),
    updated_at: z.string(),
    two_factor_enabled: z.boolean(),
  }),
  stats: userStatsSchema,
  activities: z.array(activitySchema),
  audit: auditPageSchema,
});
export type AdminUserDetail = z.infer<typeof adminUserDetailResponseSchema>;

export const deactivateRequestSchema = z.object({
  reason: safeText({ error: m.reasonMin }).trim().min(2, m.reasonMin).max(500, m.reasonMax),
});
export const adminUserResponseSchema = z.object({ message: z.string(), user: adminUserSchema });
/** A change to a user's rights, and the user as they now are. */
export const userResponseSchema = z.object({ message: z.string(), user: userSchema });
export const userRolesRequestSchema = z.object({ roles: z.array(slugSchema) });
export const userPermissionsRequestSchema = z.object({ permissions: z.array(slugSchema) });

/** A role as the back office manages it (with its id). */
export const adminRoleSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  permissions: z.array(permissionSchema),
  /** How many members hold it. */
  holders_count: z.number().int(),
});
export type AdminRole = z.infer<typeof adminRoleSchema>;
export const roleRequestSchema = z.object({
  slug: slugSchema,
  name: safeText().trim().min(2).max(100),
  permissions: z.array(slugSchema).default([]),
});
export const rolesResponseSchema = z.object({ roles: z.array(adminRoleSchema) });
export const roleResponseSchema = z.object({ role: adminRoleSchema });
export const permissionDetailSchema = z.object({ id: z.string(), slug: z.string(), name: z.string() });
export const permissionsResponseSchema = z.object({ permissions: z.array(permissionDetailSchema) });
export const roleResponseWithMessageSchema = roleResponseSchema.extend({ message: z.string() });
export const roleDeleteQuerySchema = z.object({ force: queryBool.default(false) });
export const roleHolderSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export const roleHoldersQuerySchema = z.object({
  page: dbInt().min(1).default(1),
  per_page: dbInt().min(1).max(100).default(50),
});
export const roleHoldersResponseSchema = z.object({
  data: z.array(roleHolderSchema),
  meta: pageMetaSchema.extend({ per_page: z.number() }),
});

import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export { outbox, processedEvents } from '@cartable/service-kit';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Stored lower-cased: one account per address whatever its case. */
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    isAdmin: boolean('is_admin').notNull().default(false),
    countryId: integer('country_id'),
    cityId: integer('city_id'),
    profileImage: text('profile_image'),
    phone: text('phone'),
    bio: text('bio'),
    showEmail: boolean('show_email').notNull().default(false),
    showPhone: boolean('show_phone').notNull().default(false),
    /** Set once the e-mailed second step is confirmed; null when two-factor is off. */
    twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
    /**
     * Carried by tokens; bumped to refuse every token in force (password change or reset, loss
     * of rights). The source of truth: Redis only caches it (see domain/revocation.ts).
     */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * When the member's rights (admin, roles, permissions) last changed: a token issued before
     * carries old rights, which the gateway and the services replace with the current ones.
     */
    rightsChangedAt: timestamp('rights_changed_at', { withTimezone: true }),
    /** When token_version was last bumped: older tokens outlive it by at most their lifetime. */
    tokenVersionChangedAt: timestamp('token_version_changed_at', { withTimezone: true }),
    /** Login attempts since failed_logins_since (LOGIN_WINDOW_MINUTES); a success clears it. */
    failedLogins: integer('failed_logins').notNull().default(0),
    failedLoginsSince: timestamp('failed_logins_since', { withTimezone: true }),
    /** When the next attempt may come (domain/login-throttle.ts: growing delays). */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The last attempt let through: a known address waits at most a short time after it. */
    lastLoginAttemptAt: timestamp('last_login_attempt_at', { withTimezone: true }),
    /** Set by an administrator: the member cannot sign in and their listings leave the catalogue. */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** Why (shown in the back office only). */
    deactivationReason: text('deactivation_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * One more at every update (a trigger, so no write can forget it); user events carry it and
     * other services' projections keep the highest they have seen.
     */
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), uniqueIndex('users_username_key').on(sql`lower(${t.username})`)],
);

export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
});

export const permissions = pgTable('permissions', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: uuid('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permissionId: uuid('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.permissionId] })],
);

/**
 * E-mail verification and password reset links: only a SHA-256 of the token is kept; single
 * use; they expire.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_tokens_user_purpose_idx').on(t.userId, t.purpose)],
);

/** E-mailed 6-digit codes: login second step, turning two-factor on or off. Hashed, few attempts. */
export const twoFactorCodes = pgTable(
  'two_factor_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['login', 'enable', 'disable'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_codes_user_purpose_idx').on(t.userId, t.purpose)],
);

/** Recovery codes: shown once, stored hashed, each usable once in place of an e-mailed code. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** Projection of other services' events for /user/stats: zeros until they emit. */
export const userStats = pgTable('user_stats', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  booksTotal: integer('books_total').notNull().default(0),
  booksAvailable: integer('books_available').notNull().default(0),
  booksSold: integer('books_sold').notNull().default(0),
  conversations: integer('conversations').notNull().default(0),
  messagesReceived: integer('messages_received').notNull().default(0),
  comments: integer('comments').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Addresses (hashed with the member's id) a member signed in from: their wait stays short. */
export const loginSources = pgTable(
  'login_sources',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.source] })],
);

/**
 * Catalog's books, as the member's counters need them: one row per book at its latest version
 * (kept after a deletion), so the counters are recounted from it and never drift, whatever
 * order the events come in.
 */
/**
 * Conversations a member takes part in (from messaging's events): the dashboard counts them, and
 * a conversation is counted once however many of its messages arrive, late or twice.
 */
export const memberConversations = pgTable(
  'member_conversations',
  {
    userId: uuid('user_id').notNull(),
    conversationId: uuid('conversation_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.conversationId] })],
);

export const memberBooks = pgTable(
  'member_books',
  {
    bookId: integer('book_id').primaryKey(),
    userId: uuid('user_id').notNull(),
    status: text('status').notNull(),
    deleted: boolean('deleted').notNull().default(false),
    version: integer('version').notNull(),
  },
  (t) => [index('member_books_user_idx').on(t.userId)],
);

/** Projection for /user/recent-activity: the user's own account events and, later, other services'. */
export const userActivities = pgTable(
  'user_activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    link: text('link'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_activities_user_time_idx').on(t.userId, t.occurredAt)],
);

/**
 * Tokens revoked one by one (logout), until they would have expired anyway: the source of truth
 * the gateway's Redis cache is rebuilt from. Rows past expires_at are pruned.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    jti: text('jti').primaryKey(),
    /** No foreign key: the row outlives an account deleted after its logout. */
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * Deleted accounts whose tokens may still be in circulation: every token of the user is refused
 * until expires_at (deletion + the tokens' lifetime), then the row is pruned.
 */
export const revokedUsers = pgTable(
  'revoked_users',
  {
    userId: uuid('user_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_users_expires_idx').on(t.expiresAt)],
);

/**
 * Every change an administrator makes to members, roles and rights, written in the transaction
 * of the change (domain/audit.ts): who, what, about whom (null for a role as a whole), details.
 * No foreign keys: the trail outlives the accounts it names.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id'),
    targetUserId: uuid('target_user_id'),
    action: text('action').notNull(),
    details: jsonb('details').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('admin_audit_log_target_time_idx').on(t.targetUserId, t.createdAt),
    index('admin_audit_log_time_idx').on(t.createdAt),
  ],
);

/** messaging's blocks, projected (libs/service-kit's member-blocks.ts). */
export { memberBlocks } from '@cartable/service-kit';

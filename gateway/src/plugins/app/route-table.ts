/**
 * Every documented /api path (SPEC.md section 7) and the upstream service that answers it
 * (ARCHITECTURE.md "Who owns which documented path"). Paths use Fastify's syntax; its router prefers static segments over
 * parameters and parameters over wildcards, so `/books/search` beats `/books/:id` and
 * `/books/:id/comments` (moderation) beats `/books/:id` (catalog) whatever the order here.
 *
 * access: 'public' answers visitors (a valid token is still passed on, a bad one is dropped),
 * 'user' needs a valid, unrevoked token, 'admin' an administrator's. Finer rules (verified
 * e-mail, permissions, ownership) are the upstreams' to enforce.
 */
export const upstreams = ['auth', 'catalog', 'messaging', 'moderation', 'notifications'] as const;
export type Upstream = (typeof upstreams)[number];
export type Access = 'public' | 'user' | 'admin';

/**
 * Limits per client address, by name; their values are settings of the gateway (RATE_LIMIT_*,
 * gateway/src/config.ts). Mobile carriers put many phones behind one address (CGNAT), so they
 * are loose; per-account limits belong to the upstreams.
 */
export const limitNames = [
  'register',
  'login',
  'verificationResend',
  'checkEmailVerification',
  'forgotPassword',
  'resetPassword',
  'validateResetToken',
  'twoFactorResend',
  'contact',
  'captcha',
  'uploads',
] as const;
export type LimitName = (typeof limitNames)[number];

export interface RouteEntry {
  path: string;
  upstream: Upstream;
  access: Access;
  rateLimit?: LimitName;
  /**
   * A long-lived text/event-stream response: never compressed nor buffered, cut only after a
   * silence longer than its heartbeat (not after UPSTREAM_TIMEOUT_MS), ended at shutdown.
   */
  stream?: true;
  /**
   * The body reaches the upstream byte for byte (a signed webhook: its HMAC covers the raw bytes,
   * which parsing and re-encoding the JSON would change).
   */
  rawBody?: true;
}

const auth = (path: string, access: Access = 'public', rateLimit?: LimitName): RouteEntry => ({
  path,
  upstream: 'auth',
  access,
  ...(rateLimit ? { rateLimit } : {}),
});
const catalog = (path: string, access: Access = 'public', rateLimit?: LimitName): RouteEntry => ({
  path,
  upstream: 'catalog',
  access,
  ...(rateLimit ? { rateLimit } : {}),
});
const messaging = (path: string, access: Access = 'user'): RouteEntry => ({ path, upstream: 'messaging', access });
const notifications = (path: string, access: Access = 'user'): RouteEntry => ({
  path,
  upstream: 'notifications',
  access,
});
const moderation = (path: string, access: Access = 'public', rateLimit?: LimitName): RouteEntry => ({
  path,
  upstream: 'moderation',
  access,
  ...(rateLimit ? { rateLimit } : {}),
});

export const routeTable: readonly RouteEntry[] = [
  // auth: accounts, sessions, verification, password reset, two-factor, roles & permissions, profiles
  auth('/register', 'public', 'register'),
  auth('/login', 'public', 'login'),
  auth('/logout', 'user'),
  auth('/verify-email'),
  auth('/resend-verification-email', 'public', 'verificationResend'),
  auth('/check-email-verification', 'public', 'checkEmailVerification'),
  auth('/password-check'),
  auth('/forgot-password', 'public', 'forgotPassword'),
  auth('/reset-password', 'public', 'resetPassword'),
  auth('/validate-reset-token', 'public', 'validateResetToken'),
  auth('/user', 'user'),
  auth('/user/profile', 'user'),
  auth('/user/profile/image', 'user', 'uploads'),
  auth('/user/change-password', 'user'),
  auth('/user/account', 'user'),
  auth('/user/stats', 'user'),
  auth('/user/recent-activity', 'user'),
  // Permission holders too (users.view.any, roles.view): auth checks the permission.
  auth('/users/all', 'user'),
  auth('/users/check-admin', 'user'),
  auth('/users/:userId'),
  // Delegable by permission (users.view.any): auth checks it, and keeps promote/revoke for admins.
  auth('/admin/users/*', 'user'),
  auth('/admin/stats/members', 'user'),
  auth('/two-factor/resend', 'public', 'twoFactorResend'),
  auth('/two-factor/*', 'user'),
  auth('/roles', 'user'),
  auth('/roles/*', 'user'),
  auth('/permissions', 'user'),

  // catalog: books & images, search, categories, locations, banners, deals & subscriptions
  catalog('/books', 'public', 'uploads'),
  catalog('/books/search'),
  catalog('/books/suggestions'),
  catalog('/books/featured'),
  catalog('/books/recommended'),
  catalog('/books/price-guide', 'user'),
  catalog('/books/isbn/:isbn', 'user'),
  catalog('/books/stats/user', 'user'),
  catalog('/books/:id', 'public', 'uploads'),
  catalog('/books/:id/status', 'user'),
  catalog('/books/:id/relist', 'user'),
  catalog('/books/:id/class-lists'),
  catalog('/user/books', 'user'),
  catalog('/users/profile/books', 'user'),
  // A member's public profile: their listings and deals completed (visitors too).
  catalog('/users/:userId/books'),
  catalog('/users/:userId/deals'),
  // Favourites tied to the account: catalog reads the member from the token.
  catalog('/favourites', 'user'),
  catalog('/favourites/*', 'user'),
  catalog('/categories'),
  catalog('/categories/*'),
  // Delegable by permission (categories.update, cities.manage): catalog checks it.
  catalog('/admin/categories', 'user'),
  catalog('/admin/categories/*', 'user'),
  catalog('/locations/*'),
  catalog('/cities'),
  catalog('/cities/:id'),
  catalog('/countries'),
  catalog('/countries/:id/provinces'),
  catalog('/admin/cities', 'user'),
  catalog('/admin/cities/*', 'user'),
  catalog('/banners'),
  catalog('/banners/*'),
  catalog('/transactions', 'user'),
  catalog('/transactions/*', 'user'),
  catalog('/ratings', 'user'),
  catalog('/ratings/*', 'user'),
  // Public: the reviews a member received (their public profile).
  catalog('/users/:userId/ratings'),
  // Subscriptions and payments (services/catalog/API.md): plans are public, the rest a member's;
  // catalog checks ownership, the verified e-mail and the permissions (user_subscriptions.manage,
  // payments.manage, reports.view); plans are written by administrators only.
  catalog('/subscription-plans'),
  catalog('/subscriptions', 'user'),
  catalog('/subscriptions/*', 'user'),
  catalog('/boosted-books/*', 'user'),
  catalog('/payments/*', 'user'),
  // The aggregator's signed notifications: no token (the HMAC is the check), the body untouched.
  { ...catalog('/payments/webhooks/:provider'), rawBody: true },
  catalog('/admin/subscription-plans', 'admin'),
  catalog('/admin/subscription-plans/*', 'admin'),
  catalog('/admin/subscriptions', 'user'),
  catalog('/admin/subscriptions/*', 'user'),
  catalog('/admin/boosted-books', 'user'),
  catalog('/admin/payments', 'user'),
  catalog('/admin/payments/*', 'user'),
  catalog('/admin/stats/subscriptions', 'user'),
  // Class book lists (services/catalog/API.md « Class book lists »): lists, « Ma liste » and the
  // listing form's autofill are public; proposals and saved lists a member's; the back office is
  // delegable by permission (lists.manage): catalog checks it.
  catalog('/class-lists'),
  catalog('/class-lists/proposals', 'user'),
  catalog('/class-lists/withdrawn-books'),
  catalog('/class-lists/:id'),
  catalog('/class-lists/:id/availability'),
  catalog('/class-list-items/search'),
  catalog('/my-class-lists', 'user'),
  catalog('/my-class-lists/*', 'user'),
  catalog('/admin/class-lists', 'user'),
  catalog('/admin/class-lists/*', 'user'),
  // Saved searches with alerts (services/catalog/API.md « Saved searches »): a member's own; the
  // one-click unsubscribe of their e-mails is public (its token is the proof) and takes the form
  // body mail clients post (RFC 8058: List-Unsubscribe=One-Click), which catalog ignores.
  catalog('/saved-searches', 'user'),
  catalog('/saved-searches/:id', 'user'),
  { ...catalog('/saved-searches/unsubscribe'), rawBody: true },
  // Exchange matching: a member's wishes and the pairs and cycles suggested to them.
  catalog('/exchanges', 'user'),
  catalog('/exchanges/*', 'user'),
  // Delegable by permission (books.update.any, reports.view): catalog checks it.
  catalog('/admin/books', 'user'),
  catalog('/admin/books/*', 'user'),
  catalog('/admin/stats/catalog', 'user'),
  catalog('/admin/stats/catalog/supply-demand.csv', 'user'),

  // messaging: conversations, messages, unread counts
  messaging('/messages'),
  // Live conversations (server-sent events); messaging checks the token again at each heartbeat.
  { ...messaging('/messages/stream'), stream: true },
  messaging('/messages/*'),
  messaging('/user/messages/recent'),
  messaging('/blocks'),
  messaging('/blocks/*'),
  // reports.view: messaging checks it.
  messaging('/admin/stats/messaging'),
  // A member's typical reply time, on their public profile.
  messaging('/users/:userId/reply-time', 'public'),

  // moderation: comments, contact messages, reports of abuse
  moderation('/books/:id/comments'),
  moderation('/books/:id/comments/:commentId'),
  // A book's owner moderates the comments on their book too: moderation checks who may.
  moderation('/admin/comments/*', 'user'),
  moderation('/contact', 'public', 'contact'),
  // Each question is a row in moderation's database: a client may not issue them by the thousand.
  moderation('/contact/captcha', 'public', 'captcha'),
  moderation('/admin/contacts', 'admin'),
  moderation('/admin/contacts/*', 'admin'),
  moderation('/reports', 'user'),
  moderation('/admin/reports', 'admin'),
  moderation('/admin/reports/*', 'admin'),
  // reports.view: moderation checks it.
  moderation('/admin/stats/moderation', 'user'),

  // notifications: the member's notice centre and notification preferences
  notifications('/notifications'),
  // The alert mails' one-click unsubscribe: no login, the token is the proof; the form body untouched.
  { ...notifications('/notifications/unsubscribe', 'public'), rawBody: true },
  // The SMS aggregator's delivery reports and members' replies (« STOP »): its credentials are the check.
  { ...notifications('/notifications/sms/delivery', 'public'), rawBody: true },
  { ...notifications('/notifications/sms/inbound', 'public'), rawBody: true },
  notifications('/notifications/*'),
];

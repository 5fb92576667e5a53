/**
 * Query keys that more than one frontend reads or invalidates. The shell and the remotes share one
 * QueryClient (react-query is a federated singleton), so a key must always hold the same shape
 * wherever it is used: declare it here once instead of retyping it in each frontend.
 */
export const queryKeys = {
  locations: {
    all: ['locations'] as const,
    /** The list of countries (`Country[]`). */
    countries: ['locations', 'countries'] as const,
    /** The cities of a country (`City[]`). */
    cities: (countryId: number) => ['locations', 'cities', countryId] as const,
  },
  user: {
    /** Everything about the signed-in member (removed at account deletion). */
    all: ['user'] as const,
    /** GET /user for a given token (`{ user }`). */
    me: (token: string | null) => ['user', 'me', token] as const,
    /** GET /user/profile (`Profile`). */
    profile: ['user', 'profile'] as const,
    stats: (userId: string | undefined) => ['user', 'stats', userId] as const,
    activity: (userId: string | undefined) => ['user', 'recent-activity', userId] as const,
  },
  messages: {
    all: ['messages'] as const,
    /** Prefix of every member's unread count: invalidate it after reading or sending. */
    unreadCount: ['messages', 'unread-count'] as const,
    unreadCountOf: (userId: string) => ['messages', 'unread-count', userId] as const,
  },
  transactions: {
    /** Every deal list, detail and count of the member (catalog's /transactions). */
    all: ['transactions'] as const,
    /** GET /transactions/pending-count: deals awaiting the member's answer (shell menu, dashboard). */
    pendingCount: (userId: string | undefined) => ['transactions', 'pending-count', userId] as const,
  },
  favourites: {
    /** Every favourites query of the member (ids and pages of GET /favourites). */
    all: ['favourites'] as const,
    /** The member's favourite ids (the hearts), from the server. */
    ids: (userId: string) => ['favourites', 'ids', userId] as const,
    page: (userId: string, page: number) => ['favourites', 'page', userId, page] as const,
  },
  notices: {
    /** The member's notice centre (notifications' /notifications). */
    all: ['notices'] as const,
    /** GET /notifications/unread-count for the header's bell. */
    unreadCount: (userId: string) => ['notices', 'unread-count', userId] as const,
    page: (userId: string, page: number) => ['notices', 'page', userId, page] as const,
    preferences: (userId: string) => ['notices', 'preferences', userId] as const,
  },
  comments: {
    all: ['comments'] as const,
    /** Every page of a book's comments (the catalog shows them, the back office moderates them). */
    book: (bookId: number | string) => ['comments', 'book', String(bookId)] as const,
    page: (bookId: number | string, page: number) => ['comments', 'book', String(bookId), page] as const,
  },
  moderation: {
    /** The back office's queue of comments waiting for a decision, every page. */
    pendingComments: ['admin', 'comments', 'pending'] as const,
    pendingCommentsPage: (page: number, q = '', order: 'newest' | 'oldest' = 'newest') =>
      ['admin', 'comments', 'pending', page, q, order] as const,
  },
};

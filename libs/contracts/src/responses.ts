import type { z } from 'zod';
import type {
  adminUserResponseSchema,
  changePasswordResponseSchema,
  checkAdminResponseSchema,
  currentUserResponseSchema,
  emailVerifiedResponseSchema,
  jwksResponseSchema,
  loginAnswerSchema,
  permissionsResponseSchema,
  profileResponseSchema,
  profileUpdateResponseSchema,
  publicProfileResponseSchema,
  recentActivityResponseSchema,
  recoveryCodesResponseSchema,
  registerResponseSchema,
  roleHoldersResponseSchema,
  roleRequestSchema,
  roleResponseSchema,
  roleResponseWithMessageSchema,
  rolesResponseSchema,
  tokenStatusResponseSchema,
  twoFactorEnableResponseSchema,
  userListResponseSchema,
  userResponseSchema,
  userStatsResponseSchema,
  validateResetTokenResponseSchema,
  verifyEmailResponseSchema,
} from './auth.ts';
import type {
  adminBookActionResponseSchema,
  adminBookResponseSchema,
  bannerResponseSchema,
  bannersResponseSchema,
  bookDetailResponseSchema,
  bookListResponseSchema,
  bookStatsResponseSchema,
  categoriesResponseSchema,
  categoryDetailsResponseSchema,
  categoryRefsResponseSchema,
  categoryResponseSchema,
  categoryStatsResponseSchema,
  featuredBooksResponseSchema,
  recommendedBooksResponseSchema,
} from './catalog.ts';
import type {
  classListItemSearchResponseSchema,
  classListItemWriteResponseSchema,
  classListResponseSchema,
  savedClassListResponseSchema,
  savedClassListsResponseSchema,
} from './class-lists.ts';
import type { MessageResponse } from './common.ts';
import type {
  pendingCountResponseSchema,
  transactionCandidatesResponseSchema,
  transactionResponseSchema,
} from './deals.ts';
import type { exchangeSuggestionResponseSchema, exchangeWishResponseSchema } from './exchanges.ts';
import type {
  adminCityPageSchema,
  citiesResponseSchema,
  cityDetailsResponseSchema,
  cityPageSchema,
  cityResponseSchema,
  countriesResponseSchema,
  provincesResponseSchema,
} from './locations.ts';
import type { markReadResponseSchema, recentMessagesResponseSchema, unreadCountResponseSchema } from './messaging.ts';
import type {
  contactBulkDeleteResponseSchema,
  contactListResponseSchema,
  contactRespondResponseSchema,
  contactResponseSchema,
  contactStatsResponseSchema,
  pendingCommentsResponseSchema,
} from './moderation.ts';
import type {
  blockStatusResponseSchema,
  blocksResponseSchema,
  reportCreatedResponseSchema,
  reportListResponseSchema,
  reportResolveResponseSchema,
  reportResponseSchema,
} from './reports.ts';
import type {
  adminPaymentDetailResponseSchema,
  boostedBookPageSchema,
  Payment,
  paymentActionResponseSchema,
  planResponseSchema,
  planWriteResponseSchema,
  subscriptionDetailResponseSchema,
} from './subscriptions.ts';
import type {
  allNoticesReadResponseSchema,
  noticeReadResponseSchema,
  notificationPreferencesResponseSchema,
  unreadNoticesResponseSchema,
} from './trust.ts';

/**
 * The type of every answer whose schema has none beside it, for the clients: a screen reads
 * `api.get<BannersResponse>('/banners/active')`, never a shape of its own, and a change to the
 * schema reaches it. Type-only: importing them costs a page no byte.
 */

// auth

export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;
export type CheckAdminResponse = z.infer<typeof checkAdminResponseSchema>;
export type CurrentUserResponse = z.infer<typeof currentUserResponseSchema>;
export type EmailVerifiedResponse = z.infer<typeof emailVerifiedResponseSchema>;
export type JwksResponse = z.infer<typeof jwksResponseSchema>;
/** POST /login: the session, or a two-factor challenge when a code was e-mailed. */
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export type PermissionsResponse = z.infer<typeof permissionsResponseSchema>;
export type ProfileResponse = z.infer<typeof profileResponseSchema>;
export type ProfileUpdateResponse = z.infer<typeof profileUpdateResponseSchema>;
export type PublicProfileResponse = z.infer<typeof publicProfileResponseSchema>;
export type RecentActivityResponse = z.infer<typeof recentActivityResponseSchema>;
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;
export type RegisterResponse = z.infer<typeof registerResponseSchema>;
export type RoleHoldersResponse = z.infer<typeof roleHoldersResponseSchema>;
/** What the role form sends (POST /roles, PUT /roles/{id}). */
export type RoleRequest = z.output<typeof roleRequestSchema>;
export type RoleResponse = z.infer<typeof roleResponseSchema>;
export type RoleResponseWithMessage = z.infer<typeof roleResponseWithMessageSchema>;
export type RolesResponse = z.infer<typeof rolesResponseSchema>;
export type TokenStatusResponse = z.infer<typeof tokenStatusResponseSchema>;
export type TwoFactorEnableResponse = z.infer<typeof twoFactorEnableResponseSchema>;
export type UserListResponse = z.infer<typeof userListResponseSchema>;
export type UserResponse = z.infer<typeof userResponseSchema>;
export type UserStatsResponse = z.infer<typeof userStatsResponseSchema>;
export type ValidateResetTokenResponse = z.infer<typeof validateResetTokenResponseSchema>;
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

// catalog

export type AdminBookActionResponse = z.infer<typeof adminBookActionResponseSchema>;
export type AdminBookResponse = z.infer<typeof adminBookResponseSchema>;
export type BannerResponse = z.infer<typeof bannerResponseSchema>;
export type BannersResponse = z.infer<typeof bannersResponseSchema>;
export type BookDetailResponse = z.infer<typeof bookDetailResponseSchema>;
export type BookListResponse = z.infer<typeof bookListResponseSchema>;
export type BookStatsResponse = z.infer<typeof bookStatsResponseSchema>;
export type CategoriesResponse = z.infer<typeof categoriesResponseSchema>;
export type CategoryDetailsResponse = z.infer<typeof categoryDetailsResponseSchema>;
export type CategoryRefsResponse = z.infer<typeof categoryRefsResponseSchema>;
export type CategoryResponse = z.infer<typeof categoryResponseSchema>;
export type CategoryStatsResponse = z.infer<typeof categoryStatsResponseSchema>;
export type FeaturedBooksResponse = z.infer<typeof featuredBooksResponseSchema>;
export type RecommendedBooksResponse = z.infer<typeof recommendedBooksResponseSchema>;

// class-lists

export type ClassListItemSearchResponse = z.infer<typeof classListItemSearchResponseSchema>;
export type ClassListItemWriteResponse = z.infer<typeof classListItemWriteResponseSchema>;
export type ClassListResponse = z.infer<typeof classListResponseSchema>;
export type SavedClassListResponse = z.infer<typeof savedClassListResponseSchema>;
export type SavedClassListsResponse = z.infer<typeof savedClassListsResponseSchema>;

// deals

export type PendingCountResponse = z.infer<typeof pendingCountResponseSchema>;
export type TransactionCandidatesResponse = z.infer<typeof transactionCandidatesResponseSchema>;
export type TransactionResponse = z.infer<typeof transactionResponseSchema>;

// exchanges

export type ExchangeSuggestionResponse = z.infer<typeof exchangeSuggestionResponseSchema>;
export type ExchangeWishResponse = z.infer<typeof exchangeWishResponseSchema>;

// locations

export type AdminCityPage = z.infer<typeof adminCityPageSchema>;

export type CityPage = z.infer<typeof cityPageSchema>;

export type CitiesResponse = z.infer<typeof citiesResponseSchema>;
export type CityDetailsResponse = z.infer<typeof cityDetailsResponseSchema>;
export type CityResponse = z.infer<typeof cityResponseSchema>;
export type CountriesResponse = z.infer<typeof countriesResponseSchema>;
export type ProvincesResponse = z.infer<typeof provincesResponseSchema>;

// messaging

export type MarkReadResponse = z.infer<typeof markReadResponseSchema>;
export type RecentMessagesResponse = z.infer<typeof recentMessagesResponseSchema>;
export type UnreadCountResponse = z.infer<typeof unreadCountResponseSchema>;

// moderation

export type ContactBulkDeleteResponse = z.infer<typeof contactBulkDeleteResponseSchema>;
export type ContactListResponse = z.infer<typeof contactListResponseSchema>;
export type ContactRespondResponse = z.infer<typeof contactRespondResponseSchema>;
export type ContactResponse = z.infer<typeof contactResponseSchema>;
export type ContactStatsResponse = z.infer<typeof contactStatsResponseSchema>;
export type PendingCommentsResponse = z.infer<typeof pendingCommentsResponseSchema>;

// reports

export type BlockStatusResponse = z.infer<typeof blockStatusResponseSchema>;
export type BlocksResponse = z.infer<typeof blocksResponseSchema>;
export type ReportCreatedResponse = z.infer<typeof reportCreatedResponseSchema>;
export type ReportListResponse = z.infer<typeof reportListResponseSchema>;
export type ReportResolveResponse = z.infer<typeof reportResolveResponseSchema>;
export type ReportResponse = z.infer<typeof reportResponseSchema>;

// subscriptions

export type BoostedBookPage = z.infer<typeof boostedBookPageSchema>;

export type AdminPaymentDetailResponse = z.infer<typeof adminPaymentDetailResponseSchema>;
export type PaymentActionResponse = z.infer<typeof paymentActionResponseSchema>;
export type PlanResponse = z.infer<typeof planResponseSchema>;
export type PlanWriteResponse = z.infer<typeof planWriteResponseSchema>;
export type SubscriptionDetailResponse = z.infer<typeof subscriptionDetailResponseSchema>;

// trust

export type AllNoticesReadResponse = z.infer<typeof allNoticesReadResponseSchema>;
export type NoticeReadResponse = z.infer<typeof noticeReadResponseSchema>;
export type NotificationPreferencesResponse = z.infer<typeof notificationPreferencesResponseSchema>;
export type UnreadNoticesResponse = z.infer<typeof unreadNoticesResponseSchema>;

// answers whose schema a service builds from these without naming it

/** PUT /subscriptions/{id}/books and POST /boosted-books/{id}/transfer: the subscription, and what changed. */
export type SubscriptionChangeResponse = SubscriptionDetailResponse & MessageResponse;
/** POST /payments/{id}/declaration: the payment as declared. */
export type PaymentDeclarationResponse = MessageResponse & { payment: Payment };

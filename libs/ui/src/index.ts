/**
 * @cartable/ui: the design system and the shared web kit (API client, session, permissions,
 * formatting, toasts). Shared as a Module Federation singleton: the shell and the remotes use one
 * instance, so they share the session store and the toast queue.
 */

export {
  API_BASE,
  ApiError,
  api,
  apiRequest,
  errorMessage,
  type FieldErrors,
  GENERIC_ERROR_MESSAGE,
  isNotFound,
  NETWORK_ERROR_MESSAGE,
  type RequestOptions,
} from './api/client';
export { cn } from './cn';
export { compareFrench } from './collate';
export { Alert, type AlertProps, type AlertTone } from './components/Alert';
export { Avatar, type AvatarProps } from './components/Avatar';
export { Badge, type BadgeProps, type BadgeTone } from './components/Badge';
export { BelowFold, useAfterPaint } from './components/BelowFold';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant, buttonClasses } from './components/Button';
export { Card, CardBody, CardHeader, CardTitle } from './components/Card';
export { ComingSoon, type ComingSoonProps } from './components/ComingSoon';
export { EmptyState, type EmptyStateProps } from './components/EmptyState';
export { CrashFallback, ErrorBoundary, type ErrorBoundaryProps } from './components/ErrorBoundary';
export {
  Checkbox,
  type CheckboxProps,
  Input,
  type InputProps,
  PasswordInput,
  type PasswordInputProps,
  Select,
  type SelectProps,
  Textarea,
  type TextareaProps,
} from './components/Input';
export { LoadFailed, type LoadFailedProps, type RetryableRead } from './components/LoadFailed';
export { Container, PageHeader, type PageHeaderProps, useDocumentTitle } from './components/Page';
export { type PageItem, Pagination, type PaginationProps, pageItems } from './components/Pagination';
export { SchoolYearCard } from './components/SchoolYearCard';
export { Skeleton } from './components/Skeleton';
export { PageSpinner, Spinner, type SpinnerProps } from './components/Spinner';
export { currentUserQuery, UNREAD_POLL_MS, unreadCountQuery } from './data/account';
export {
  FAVOURITES_KEY,
  favouriteIdsQuery,
  favouritesPageQuery,
  favouritesStore,
  isFavourite,
  mergeFavouritesAtLogin,
  setFavourite,
  useFavouriteIds,
} from './data/favourites';
export { queryKeys } from './data/keys';
export {
  createSseParser,
  isLiveMessagesOpen,
  LIVE_HIDDEN_GRACE_MS,
  LIVE_RETRY_MAX_MS,
  LIVE_RETRY_MIN_MS,
  LiveMessagesClient,
  type LiveMessagesEvent,
  type LiveStatus,
  liveMessages,
  useLiveMessageEvents,
  useLiveMessages,
  useLiveMessagesOpen,
} from './data/live-messages';
export {
  citiesQuery,
  countriesQuery,
  fetchCities,
  fetchCountries,
  groupByProvince,
  type ProvinceCities,
  REFERENCE_STALE_MS,
  useCities,
  useCountries,
} from './data/locations';
export {
  badgeCount,
  noticesPageQuery,
  notificationPreferencesQuery,
  unreadNoticesQuery,
} from './data/notices';
export {
  formatDate,
  formatDateTime,
  formatNumber,
  formatPhone,
  formatPrice,
  initials,
  type PriceOptions,
  profileImageUrl,
} from './format';
export { useDismiss, useSubmissionKey } from './hooks';
export * from './icons';
// A form's zod schemas, loaded when the form is first touched.
export { FORM_CHECKS_UNAVAILABLE_MESSAGE, type LazyChecks, lazyChecks } from './lazy-checks';
// Dialogs that load @cartable/ui/overlays (or their own module) when first opened.
export { LazyConfirmDialog, LazyDialog, useOpenedOnce } from './lazy-dialogs';
export {
  countDataUsage,
  type DataSaver,
  DEFAULT_PRICE_PER_GB,
  formatBytes,
  formatDataCost,
  setDataPrice,
  setDataSaver,
  startPageCount,
  useDataSaver,
  useDataUsage,
} from './offline/data-saver';
export {
  forgetMemberAnswers,
  forgetOfflineAnswers,
  type OfflineState,
  seenAgo,
  useOfflineState,
} from './offline/offline-state';
export { cancelWrite, type PendingWrite, pendingWrites, usePendingWrites } from './offline/pending-writes';
export { once } from './once';
export { BACK_OFFICE_PERMISSIONS, canEnterBackOffice, hasPermission, hasRole, WILDCARD } from './permissions';
export { sameSitePath } from './same-site';
export {
  getSession,
  initSession,
  isAdminUser,
  logout,
  type Session,
  storeLogin,
  useLogout,
  useSession,
} from './session/session';
export { isVerifiedUser, type SessionState, sessionStore, TOKEN_KEY, USER_KEY } from './session/store';
export type { LoginResponse, PermissionRef, RoleRef, User } from './session/types';
export { AppToaster, type NotifyOptions, notify, notifyFailure, useToastsAboveBar } from './toast';

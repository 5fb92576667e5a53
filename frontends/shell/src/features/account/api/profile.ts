import type {
  ChangePasswordResponse,
  MessageResponse,
  Profile,
  ProfileResponse,
  ProfileUpdateResponse,
  RecoveryCodesResponse,
  TwoFactorEnableResponse,
} from '@cartable/contracts';
import { api, queryKeys, sessionStore, type User } from '@cartable/ui';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

/** The profile screen's calls (services/auth/API.md "Profile" and "Two-factor"). */

export const profileKey = queryKeys.user.profile;

export async function fetchProfile(signal?: AbortSignal): Promise<Profile> {
  const data = await api.get<ProfileResponse>('/user/profile', { signal });
  return data.profile;
}

export const profileQuery = () => queryOptions({ queryKey: profileKey, queryFn: ({ signal }) => fetchProfile(signal) });

export function useProfile() {
  return useQuery(profileQuery());
}

export function updateProfile(values: unknown) {
  return api.put<ProfileUpdateResponse>('/user/profile', values);
}

export function uploadProfileImage(file: File) {
  const body = new FormData();
  body.append('profile_image', file);
  return api.post<ProfileUpdateResponse>('/user/profile/image', body);
}

export function deleteProfileImage() {
  return api.delete<ProfileUpdateResponse>('/user/profile/image');
}

/** The answer carries a new access token: every older one is refused from now on. */
export function changePassword(values: unknown) {
  return api.put<ChangePasswordResponse>('/user/change-password', values);
}

export function deleteAccount(body: unknown) {
  return api.delete<MessageResponse>('/user/account', body);
}

export const twoFactor = {
  enable: () => api.post<TwoFactorEnableResponse>('/two-factor/enable'),
  resend: (email: string, type: 'enable' | 'disable') =>
    api.post<MessageResponse>('/two-factor/resend', { email, type }),
  confirm: (body: unknown) => api.post<RecoveryCodesResponse>('/two-factor/confirm', body),
  disable: (body: unknown) => api.post<MessageResponse>('/two-factor/disable', body),
  regenerateCodes: (body: unknown) => api.post<RecoveryCodesResponse>('/two-factor/regenerate-codes', body),
};

/** The session keeps the user fields only (the profile adds phone, bio, two-factor state...). */
export function toSessionUser(profile: Profile): User {
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    username: profile.username,
    profile_image: profile.profile_image,
    email_verified: profile.email_verified,
    is_admin: profile.is_admin,
    roles: profile.roles,
    permissions: profile.permissions,
    country_id: profile.country_id,
    city_id: profile.city_id,
    created_at: profile.created_at,
  };
}

/** A fresh profile from the server: into the query cache and into the stored session user. */
export function applyProfile(queryClient: QueryClient, profile: Profile | undefined) {
  if (!profile) return;
  queryClient.setQueryData(profileKey, profile);
  const current = sessionStore.getState().user;
  sessionStore.setUser({ ...(current ?? {}), ...toSessionUser(profile) });
}

export const TWO_FACTOR_ERRORS = {
  enable: "Erreur lors de l'activation de la 2FA",
  confirm: 'Erreur lors de la confirmation de la 2FA',
  disable: 'Erreur lors de la désactivation de la 2FA',
  resend: 'Erreur lors du renvoi du code',
  regenerate: 'Erreur lors de la régénération des codes',
} as const;

export const PROFILE_UPDATE_FALLBACK = 'Une erreur est survenue lors de la mise à jour du profil';

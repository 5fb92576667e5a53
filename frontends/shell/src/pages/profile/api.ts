import type { Profile } from '@cartable/contracts';
import { api, sessionStore, type User } from '@cartable/ui';
import { type QueryClient, useQuery } from '@tanstack/react-query';

export const profileKey = ['user', 'profile'] as const;

export function useProfile() {
  return useQuery({
    queryKey: profileKey,
    queryFn: async ({ signal }) => {
      const data = await api.get<{ profile: Profile }>('/user/profile', { signal });
      return data.profile;
    },
  });
}

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

// The profile page's checks: its requests' schemas from the contracts, which the server applies
// too. The page loads this module when one of its forms is first touched (`accountChecks`,
// ./checks.ts), never with the page: nothing else may import it (the contracts bring zod whole).
import {
  changePasswordRequestSchema,
  passwordOnlySchema,
  profileUpdateSchema,
  twoFactorConfirmSchema,
  twoFactorDisableSchema,
} from '@cartable/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { fallbackMessages, withPasswordMatch } from '../../../shared/forms';

export const profile = zodResolver(
  profileUpdateSchema,
  fallbackMessages({ name: 'Le nom ne peut pas dépasser 100 caractères' }),
);

export const changePassword = withPasswordMatch(zodResolver(changePasswordRequestSchema));

/** The password alone: deleting the account, new recovery codes. */
export const passwordOnly = passwordOnlySchema;

export const twoFactorConfirm = twoFactorConfirmSchema;

export const twoFactorDisable = twoFactorDisableSchema;

// The auth forms' checks: their requests' schemas from the contracts, which the server applies
// too. The pages load this module when their form is first touched (`authChecks`, ./checks.ts),
// never with the page: nothing else may import it (the contracts bring zod whole).
import {
  emailRequestSchema,
  loginRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  twoFactorCodeSchema,
} from '@cartable/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { fallbackMessages, withPasswordMatch } from '../../shared/forms';

/** The recovery code's schema states no message of its own for an empty field. */
const RECOVERY_CODE_REQUIRED = 'Saisissez un de vos codes de récupération';

export const credentialsSchema = loginRequestSchema.pick({ email: true, password: true });
const codeSchema = credentialsSchema.extend({ code: twoFactorCodeSchema });
const recoverySchema = credentialsSchema.extend({
  recovery_code: loginRequestSchema.shape.recovery_code.unwrap(),
});

/** The login form's schema at each step: credentials, then the e-mailed code or a recovery code. */
export const login = {
  credentials: zodResolver(credentialsSchema),
  code: zodResolver(codeSchema),
  recovery: zodResolver(recoverySchema, fallbackMessages({ recovery_code: RECOVERY_CODE_REQUIRED })),
};

export const register = withPasswordMatch(
  zodResolver(registerRequestSchema, fallbackMessages({ name: 'Le nom ne peut pas dépasser 100 caractères' })),
);

/** An address alone: the resend forms of /verify-email and /register-success. */
export const emailRequest = emailRequestSchema;

export const forgotPassword = zodResolver(emailRequestSchema);

export const resetPassword = withPasswordMatch(zodResolver(resetPasswordRequestSchema));

import type {
  EmailVerifiedResponse,
  LoginAnswer,
  MessageResponse,
  RegisterResponse,
  ValidateResetTokenResponse,
  VerifyEmailResponse,
} from '@cartable/contracts';
import { api } from '@cartable/ui';

/**
 * The auth screens' calls (services/auth/API.md). They run from form handlers, not from queries:
 * each answer decides where the visitor goes next.
 */

/** POST /login answers the session, or a two-factor challenge when a code was e-mailed (API.md "Session"). */
export type { LoginAnswer };

export function login(body: Record<string, string>) {
  return api.post<LoginAnswer>('/login', body);
}

/** A new e-mailed code for the login step, or to turn two-factor on or off. */
export function resendTwoFactorCode(email: string, type: 'login' | 'enable' | 'disable') {
  return api.post<MessageResponse>('/two-factor/resend', { email, type });
}

export function register(values: unknown) {
  return api.post<RegisterResponse>('/register', values);
}

/** Without the proof (`verification_check`) the answer is always false: it tells nobody who has an account. */
export function checkEmailVerification(email: string, verificationCheck: string | undefined) {
  return api.post<EmailVerifiedResponse>('/check-email-verification', {
    email,
    ...(verificationCheck ? { verification_check: verificationCheck } : {}),
  });
}

export function resendVerificationEmail(body: { email: string }) {
  return api.post<MessageResponse>('/resend-verification-email', body);
}

export function verifyEmail(token: string, email: string) {
  return api.post<VerifyEmailResponse>('/verify-email', { token, email });
}

export function forgotPassword(email: string) {
  return api.post<MessageResponse>('/forgot-password', { email });
}

export function resetPassword(values: unknown) {
  return api.post<MessageResponse>('/reset-password', values);
}

/** Whether a reset link still works, before the form is shown. */
export function validateResetToken(token: string, email: string, signal?: AbortSignal) {
  return api.post<ValidateResetTokenResponse>('/validate-reset-token', { token, email }, { signal });
}

import { api, type LoginResponse } from '@cartable/ui';

/**
 * The auth screens' calls (services/auth/API.md). They run from form handlers, not from queries:
 * each answer decides where the visitor goes next.
 */

/** Answer of POST /login when a code was e-mailed (API.md "Session"). */
export interface TwoFactorChallenge {
  two_factor_required: true;
  code_sent?: boolean;
  message?: string;
  email?: string;
}

export type LoginAnswer = LoginResponse | TwoFactorChallenge;

export function login(body: Record<string, string>) {
  return api.post<LoginAnswer>('/login', body);
}

/** A new e-mailed code for the login step, or to turn two-factor on or off. */
export function resendTwoFactorCode(email: string, type: 'login' | 'enable' | 'disable') {
  return api.post<{ message?: string }>('/two-factor/resend', { email, type });
}

export function register(values: unknown) {
  return api.post<{ message?: string }>('/register', values);
}

export function checkEmailVerification(email: string) {
  return api.post<{ verified?: boolean }>('/check-email-verification', { email });
}

export function resendVerificationEmail(body: { email: string }) {
  return api.post<{ message?: string }>('/resend-verification-email', body);
}

export function verifyEmail(token: string, email: string) {
  return api.post<{ message?: string }>('/verify-email', { token, email });
}

export function forgotPassword(email: string) {
  return api.post<{ message?: string }>('/forgot-password', { email });
}

export function resetPassword(values: unknown) {
  return api.post<{ message?: string }>('/reset-password', values);
}

/** Whether a reset link still works, before the form is shown. */
export function validateResetToken(token: string, email: string, signal?: AbortSignal) {
  return api.post<{ valid?: boolean; email?: string }>('/validate-reset-token', { token, email }, { signal });
}

import { lazy } from 'react';

/** Sign-in, sign-up, e-mail verification and password recovery. Each screen is its own chunk. */
export const LoginPage = lazy(() => import('./pages/LoginPage'));
export const RegisterPage = lazy(() => import('./pages/RegisterPage'));
export const RegisterSuccessPage = lazy(() => import('./pages/RegisterSuccessPage'));
export const VerifyEmailPage = lazy(() => import('./pages/VerifyEmailPage'));
export const ForgotPasswordPage = lazy(() => import('./pages/ForgotPasswordPage'));
export const ResetPasswordPage = lazy(() => import('./pages/ResetPasswordPage'));

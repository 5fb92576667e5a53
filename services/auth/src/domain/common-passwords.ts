import { messages } from '@cartable/contracts';
import { isFamiliarPassword } from '@cartable/contracts/password';
import { unprocessable } from '@cartable/service-kit';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Passwords everybody tries first are refused on top of the spec's rules: the 49,000 most
 * common ones (zxcvbn-ts's list, too big to send to a phone: the forms ask POST /password-check),
 * and French favourites with whatever digits or signs follow them (the contracts' list, which the
 * forms' meter knows too).
 */
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase()) || isFamiliarPassword(password);
}

/** 422 on the password field, as the other password rules answer. */
export function refuseCommonPassword(password: string, field = 'password') {
  if (isCommonPassword(password))
    throw unprocessable({ [field]: [messages.auth.passwordTooCommon] }, messages.auth.passwordTooCommon);
}

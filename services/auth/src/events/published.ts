import type { ClaimsToSign } from '@cartable/contracts';
import type { Transaction } from '@cartable/service-kit';
import type { CodePurpose, UserRow } from '../db/queries.ts';

/**
 * What auth publishes, one function per event type, recorded in the transaction of the change
 * (libs/contracts/src/events.ts holds their schemas). Links and codes travel to notifications,
 * which e-mails them; nothing else reads them.
 */

type Member = Pick<UserRow, 'id' | 'name' | 'email'>;

export const userRegistered = (t: Transaction, row: UserRow, verification: { token: string; expiresAt: Date } | null) =>
  t.record('auth.user.registered', {
    user_id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    country_id: row.countryId,
    city_id: row.cityId,
    profile_image: row.profileImage,
    created_at: row.createdAt.toISOString(),
    version: row.version,
    verification: verification && { token: verification.token, expires_at: verification.expiresAt.toISOString() },
  });

export const userVerified = (t: Transaction, userId: string, at: Date) =>
  t.record('auth.user.verified', { user_id: userId, verified_at: at.toISOString() });

/**
 * What other services may know of a member (catalog's sellers projection): contact details
 * travel only when the member chose to show them.
 */
export const userUpdated = (t: Transaction, row: UserRow) =>
  t.record('auth.user.updated', {
    user_id: row.id,
    name: row.name,
    username: row.username,
    profile_image: row.profileImage,
    country_id: row.countryId,
    city_id: row.cityId,
    email: row.showEmail ? row.email : null,
    phone: row.showPhone ? row.phone : null,
    updated_at: row.updatedAt.toISOString(),
    version: row.version,
  });

export const userDeleted = (t: Transaction, row: Member, version: number) =>
  t.record('auth.user.deleted', {
    user_id: row.id,
    name: row.name,
    email: row.email,
    deleted_at: new Date().toISOString(),
    version,
  });

export const verificationRequested = (t: Transaction, user: Member, link: { token: string; expiresAt: Date }) =>
  t.record('auth.email_verification.requested', {
    user_id: user.id,
    name: user.name,
    email: user.email,
    token: link.token,
    expires_at: link.expiresAt.toISOString(),
  });

export const passwordResetRequested = (t: Transaction, user: Member, link: { token: string; expiresAt: Date }) =>
  t.record('auth.password_reset.requested', {
    user_id: user.id,
    name: user.name,
    email: user.email,
    token: link.token,
    expires_at: link.expiresAt.toISOString(),
  });

export const passwordChanged = (t: Transaction, user: Member, reason: 'reset' | 'change', at: Date) =>
  t.record('auth.password.changed', {
    user_id: user.id,
    name: user.name,
    email: user.email,
    changed_at: at.toISOString(),
    reason,
  });

export const twoFactorCodeRequested = (
  t: Transaction,
  user: Member,
  issued: { code: string; purpose: CodePurpose; expiresAt: Date },
) =>
  t.record('auth.two_factor.code_requested', {
    user_id: user.id,
    name: user.name,
    email: user.email,
    code: issued.code,
    purpose: issued.purpose,
    expires_at: issued.expiresAt.toISOString(),
  });

/** The claims the member's next token will carry. */
export const roleChanged = (t: Transaction, userId: string, claims: ClaimsToSign, changedBy: string) =>
  t.record('auth.user.role_changed', {
    user_id: userId,
    is_admin: claims.is_admin,
    roles: claims.roles,
    permissions: claims.permissions,
    changed_by: changedBy,
  });

/** With the member's version after the change: catalog hides their listings. */
export const userDeactivated = (t: Transaction, row: UserRow) =>
  t.record('auth.user.deactivated', {
    user_id: row.id,
    deactivated_at: row.deactivatedAt!.toISOString(),
    version: row.version,
  });

export const userReactivated = (t: Transaction, row: UserRow) =>
  t.record('auth.user.reactivated', {
    user_id: row.id,
    reactivated_at: row.updatedAt.toISOString(),
    version: row.version,
  });

/** A report's decision applied (or found done, or its member gone): moderation closes the reports. */
export const reportApplied = (t: Transaction, reportIds: string[], outcome: 'applied' | 'already' | 'gone') =>
  t.record('auth.report.applied', { report_ids: reportIds, outcome });

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  LOGIN_HISTORY_PAGE_SIZE,
  LoginEntry,
  type Challenge,
  type EnrolFactorBody,
  type Enrolment,
  type FactorRemoved,
  type OtpBody,
  type UpdateUserBody,
  type VerifyAndUpdatePasswordBody,
  type VerifyBody,
  type LoginHistoryQuery,
  type VerifyFactorBody,
} from '@ledger/contract/access.js';
import type { Done, ErrorAnswer } from '@ledger/contract/common.js';
import { deleteJson, getJson, postJson, putJson, requestWithStatus } from '@/lib/api-client.js';
import type { SecondStep, User } from '@/lib/auth-types.js';
import { parseAnswer } from '@/lib/query.js';

/** The Security tab's calls (docs/api-auth.md). */

/** A new authenticator to scan (the access contract's Enrolment). */
export type TotpEnrolment = z.infer<typeof Enrolment>;

export async function enrolTotp(): Promise<TotpEnrolment> {
  const body: z.input<typeof EnrolFactorBody> = { factor_type: 'totp', friendly_name: 'Authenticator App' };
  const answer = await postJson<TotpEnrolment>('auth/v1/factors', body);
  // The server answers the QR code's SVG, as GoTrue does; an <img> shows it as a data URL (as Supabase's SDK makes it).
  if (answer?.totp?.qr_code?.startsWith('<svg'))
    return { ...answer, totp: { ...answer.totp, qr_code: `data:image/svg+xml;utf-8,${encodeURIComponent(answer.totp.qr_code)}` } };
  return answer;
}

export function unenrolFactor(factorId: string): Promise<z.infer<typeof FactorRemoved>> {
  return deleteJson(`auth/v1/factors/${encodeURIComponent(factorId)}`);
}

/** Challenge and verify in one go; the answer is the session upgraded to aal2. */
export async function verifyTotp(factorId: string, code: string): Promise<SecondStep> {
  const challenge = await postJson<z.infer<typeof Challenge>>(`auth/v1/factors/${encodeURIComponent(factorId)}/challenge`);
  const body: z.input<typeof VerifyFactorBody> = { challenge_id: challenge.id, code };
  return postJson<SecondStep>(`auth/v1/factors/${encodeURIComponent(factorId)}/verify`, body);
}

export function setActiveMfaMethod(method: 'totp' | 'email' | null): Promise<User> {
  const body: z.input<typeof UpdateUserBody> = { data: { active_mfa_method: method } };
  return putJson<User>('auth/v1/user', body);
}

export function sendEmailCode(email: string): Promise<unknown> {
  const body: z.input<typeof OtpBody> = { email, create_user: false };
  return postJson('auth/v1/otp', body);
}

export function verifyEmailCode(email: string, token: string): Promise<SecondStep> {
  const body: z.input<typeof VerifyBody> = { type: 'email', email, token };
  return postJson<SecondStep>('auth/v1/verify', body);
}

export type PasswordResult = { success: boolean; error?: string };

/**
 * verify-and-update-password. With `verifyOnly` (the same password in both fields) it only
 * confirms the password, which the server then accepts for removing a second factor.
 */
export async function verifyAndUpdatePassword(
  oldPassword: string,
  newPassword: string,
  verifyOnly = false,
): Promise<PasswordResult & { status: number }> {
  const json: z.input<typeof VerifyAndUpdatePasswordBody> = { oldPassword, newPassword, ...(verifyOnly ? { verifyOnly: true } : {}) };
  const res = await requestWithStatus<z.infer<typeof Done> | ErrorAnswer>('post', 'functions/v1/verify-and-update-password', { json });
  const body = res.body && typeof res.body === 'object' ? res.body : {};
  return { status: res.status, success: res.ok && (body as PasswordResult).success === true, error: (body as { error?: string }).error };
}

/** One sign-in of the login history (the access contract's LoginEntry). */
export type LoginHistoryEntry = z.infer<typeof LoginEntry>;

export { LOGIN_HISTORY_PAGE_SIZE };
export const LOGIN_HISTORY_FAILED = 'Failed to load login history.';

export const loginHistoryKey = (page: number) => ['customer', 'login-history', page] as const;

export async function fetchLoginHistory(page: number, signal?: AbortSignal): Promise<LoginHistoryEntry[]> {
  const searchParams = { page, pageSize: LOGIN_HISTORY_PAGE_SIZE } satisfies z.input<typeof LoginHistoryQuery>;
  const body = await getJson('functions/v1/get-login-history', { signal, searchParams });
  return parseAnswer(z.array(LoginEntry), body, LOGIN_HISTORY_FAILED);
}

/** One page of the login history; the page shown stays while the next one loads. */
export function useLoginHistory(page: number) {
  return useQuery({
    queryKey: loginHistoryKey(page),
    queryFn: ({ signal }) => fetchLoginHistory(page, signal),
    placeholderData: keepPreviousData,
  });
}

import type { z } from 'zod';
import type { UpdateUserBody, VerifyBody } from '@ledger/contract/access.js';
import { anonymous, postJson, putJson, withBearer } from '@/lib/api-client.js';
import type { Session, User } from '@/lib/auth-types.js';

/** Trades the token of a reset link for a short recovery session. Single use. */
export function verifyRecoveryToken(token: string): Promise<Session> {
  const body: z.input<typeof VerifyBody> = { type: 'recovery', token };
  return postJson<Session>('auth/v1/verify', body, anonymous());
}

/** PUT /auth/v1/user {password}: with the recovery session's token, or the signed-in session's. */
export function updatePassword(password: string, bearer?: string): Promise<User> {
  const body: z.input<typeof UpdateUserBody> = { password };
  return putJson<User>('auth/v1/user', body, bearer ? withBearer(bearer) : {});
}

/** Clears requires_password_change once the new password is set (the forced change page). */
export function clearPasswordChangeFlag(): Promise<User> {
  const body: z.input<typeof UpdateUserBody> = { data: { requires_password_change: false } };
  return putJson<User>('auth/v1/user', body);
}

/** Ends a session that is not the app's own (the recovery session), quietly. */
export function endSession(bearer: string): void {
  postJson('auth/v1/logout?scope=local', undefined, withBearer(bearer)).catch(() => undefined);
}

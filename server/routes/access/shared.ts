import type { FastifyRequest } from 'fastify';
import type { Accounts, RequestInfo } from '../../auth/accounts.js';
import { authErrors } from '../../auth/errors.js';

/**
 * What the access area's route files share: their limits, the recent-sign-in check. The request
 * fields of the auth calls are the contract's (ledger/contract/access.ts).
 */

/** A public call with a per-client limit (the guard's other routes need a session). */
export const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' }, auth: 'public' as const });

/**
 * Refuses (403 reauthentication_required) unless the caller gives the right current password or the
 * session signed in or confirmed its password in the last 5 minutes (accounts.ts RECENT_AUTH_MS).
 */
export async function assertRecentAuth(
  accounts: Accounts,
  sessionId: string,
  userId: string,
  currentPassword: string | undefined,
): Promise<void> {
  if (currentPassword !== undefined) {
    if (await accounts.confirmPassword(userId, currentPassword)) return;
    throw authErrors.reauthRequired();
  }
  if (!(await accounts.recentlyAuthenticated(sessionId))) throw authErrors.reauthRequired();
}

export function requestInfo(request: FastifyRequest): RequestInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null, log: request.log };
}

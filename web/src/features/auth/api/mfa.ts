import type { z } from 'zod';
import type { Challenge, VerifyFactorBody } from '@ledger/contract/access.js';
import { postJson } from '@/lib/api-client.js';
import type { Session } from '@/lib/auth-types.js';

/** A challenge to answer with the authenticator's code (the access contract's). */
export type MfaChallenge = z.infer<typeof Challenge>;

export function createMfaChallenge(factorId: string): Promise<MfaChallenge> {
  return postJson<MfaChallenge>(`auth/v1/factors/${encodeURIComponent(factorId)}/challenge`);
}

/** Answers the challenge with the authenticator's code; the answer is the upgraded (aal2) session. */
export function verifyMfaChallenge(factorId: string, challengeId: string, code: string): Promise<Session> {
  const body: z.input<typeof VerifyFactorBody> = { challenge_id: challengeId, code };
  return postJson<Session>(`auth/v1/factors/${encodeURIComponent(factorId)}/verify`, body);
}

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

export const METRICS_TOKEN_NEEDED = 'The metrics need the operators\u2019 token (METRICS_TOKEN) as a bearer token.';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether the caller may see operational detail (`/metrics`, the detail of `/readyz`): with
 * METRICS_TOKEN set, only a caller presenting it (`Authorization: Bearer <token>`); without it,
 * anyone outside production and nobody in production (per-route counts of staff actions, the
 * event store's head and the read models' lag are not for the public).
 */
export function operatorAccess(config: Pick<Config, 'NODE_ENV' | 'METRICS_TOKEN'>): (request: FastifyRequest) => boolean {
  const token = config.METRICS_TOKEN;
  if (!token) return () => config.NODE_ENV !== 'production';
  const expected = digest(token);
  return (request) => {
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? /^Bearer (\S+)$/i.exec(header)?.[1] : undefined;
    // Compared as digests, in constant time: the answer's timing tells nothing of the token.
    return given !== undefined && timingSafeEqual(digest(given), expected);
  };
}

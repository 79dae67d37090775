import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { isStaffRole } from '../shared/access.js';
import { HttpError } from '../errors.js';

export const DOCS_STAFF_ONLY = 'The API description is shown to signed-in staff only.';

/** True when the request carries a live staff session's access token (never throws). */
export async function isStaffCaller(request: FastifyRequest): Promise<boolean> {
  if (!request.headers.authorization) return false;
  try {
    const auth = await request.server.authServices.guard.authenticate(request);
    return isStaffRole(auth.role);
  } catch {
    return false;
  }
}

/**
 * `/docs` and `/docs/json` list every route: in production only a staff sign-in sees them,
 * unless DOCS_PUBLIC=true. Register before the documentation's own routes.
 */
export function guardDocs(app: FastifyInstance, config: Pick<Config, 'NODE_ENV' | 'DOCS_PUBLIC'>): void {
  if (config.NODE_ENV !== 'production' || config.DOCS_PUBLIC === 'true') return;
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0]!;
    if (path !== '/docs' && !path.startsWith('/docs/')) return;
    if (!(await isStaffCaller(request))) throw new HttpError(401, DOCS_STAFF_ONLY);
  });
}

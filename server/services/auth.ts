import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { registerAuth } from '../auth/index.js';
import type { ServiceOptions } from '../app.js';

/**
 * `app.authServices`: accounts, sessions, second factors, the guard, mail, captcha and the sign-in
 * throttle; their routes are server/routes/access/. From here on every route is checked as its
 * `config.auth` (or its folder's autohooks) says, at onRequest (server/auth/guard.ts).
 */
export default fp(
  async (app: FastifyInstance, { config }: ServiceOptions) => {
    app.decorate('authServices', await registerAuth(app, app.ledger, config));
  },
  { name: 'auth' },
);

import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { FourEyes } from '../staff/four-eyes.js';

/** `app.fourEyes`: the two-person rule on staff actions that move value (docs/finance.md, "Four eyes"). */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate('fourEyes', new FourEyes(app.ledger, app.prices));
  },
  { name: 'four-eyes', dependencies: ['prices'] },
);

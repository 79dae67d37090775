import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { PayoutScheduler } from '../marketplace/payout-scheduler.js';

/**
 * `app.payouts`: pays matured stakes. Registered after the live feed, so that on close it stops
 * first (close hooks run last-registered first), then the live feed, then the ledger.
 */
export default fp(
  async (app: FastifyInstance) => {
    const payouts = new PayoutScheduler(app.ledger, { log: app.log });
    app.decorate('payouts', payouts);
    app.addHook('onClose', () => payouts.stop());
    await payouts.start();
  },
  { name: 'payouts', dependencies: ['live-feed'] },
);

import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { DailySeal } from '../audit/daily-seal.js';

/** `app.dailySeal`: seals the event log every day at 00:15 UTC (server/audit/daily-seal.ts). */
export default fp(
  async (app: FastifyInstance) => {
    const seal = new DailySeal(app.ledger.store, { log: app.log });
    app.decorate('dailySeal', seal);
    app.addHook('onClose', () => seal.stop());
    seal.start();
  },
  { name: 'daily-seal', dependencies: ['payouts'] },
);

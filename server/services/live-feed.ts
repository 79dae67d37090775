import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { LiveFeed } from '../realtime/live-feed.js';
import { customerHints } from '../realtime/customer-hints.js';
import { approvalHints } from '../staff/four-eyes.js';
import { announcementHints } from '../staff/announcements.js';
import type { ServiceOptions } from '../app.js';

/**
 * `app.liveFeed`: one follower of the log for every realtime hint and policy
 * (server/realtime/live-feed.ts); stopped on close before the ledger closes.
 */
export default fp(
  async (app: FastifyInstance, { config }: ServiceOptions) => {
    const { ledger, realtime: hub } = app;
    const live = new LiveFeed(ledger.store, ledger.projector, config.PROJECTION_WAIT_MS);
    live.register(customerHints(hub));
    live.register(approvalHints(ledger, hub));
    live.register(announcementHints(ledger, hub));
    await live.start();
    app.addHook('onClose', () => live.stop());
    app.decorate('liveFeed', live);
  },
  { name: 'live-feed', dependencies: ['realtime'] },
);

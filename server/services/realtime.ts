import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { RealtimeHub } from '../realtime/hub.js';
import { registerRealtime } from '../realtime/routes.js';

/** `app.realtime`: the websocket hub (its route is checked by the guard), fed the prices as they change. */
export default fp(
  async (app: FastifyInstance) => {
    const hub = new RealtimeHub();
    app.decorate('realtime', hub);
    await registerRealtime(app, app.authServices, hub);
    app.prices.onUpdate((snapshot) => hub.broadcast('prices', snapshot.prices));
  },
  { name: 'realtime', dependencies: ['auth', 'prices'] },
);

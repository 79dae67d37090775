import type { FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import type { AuthServices } from '../auth/index.js';
import type { RealtimeHub } from './hub.js';

/** How long a socket may stay silent before it is closed (the client's heartbeat is 30 s). */
const IDLE_MS = 45_000;

/**
 * `/realtime/v1`: one WebSocket per tab, authorised by the access token in the `token`
 * query parameter (browsers cannot set headers on a WebSocket). A user receives only
 * their own topics, and the public ones. `{type:'heartbeat'}` is answered in kind.
 */
export async function registerRealtime(app: FastifyInstance, auth: AuthServices, hub: RealtimeHub): Promise<void> {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 4096 },
    errorHandler: (error, socket) => {
      app.log.error({ err: error }, 'realtime socket failed');
      socket.close(1011, 'server error');
    },
  });
  app.addHook('onClose', async () => hub.closeAll());
  app.get('/realtime/v1', { websocket: true }, async (socket, request) => {
    const token = (request.query as { token?: string }).token;
    let userId: string;
    try {
      if (!token) throw new Error('no token');
      request.headers.authorization = `Bearer ${token}`;
      userId = (await auth.guard.authenticate(request)).userId;
    } catch {
      socket.close(4401, 'unauthorized');
      return;
    }
    hub.add(userId, socket);
    let idle = setTimeout(() => socket.close(4408, 'idle'), IDLE_MS);
    socket.on('message', (raw) => {
      clearTimeout(idle);
      idle = setTimeout(() => socket.close(4408, 'idle'), IDLE_MS);
      let message: { type?: string };
      try {
        message = JSON.parse(String(raw));
      } catch {
        return;
      }
      if (message.type === 'heartbeat') socket.send(JSON.stringify({ type: 'heartbeat' }));
    });
    socket.on('close', () => {
      clearTimeout(idle);
      hub.remove(userId, socket);
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  });
}

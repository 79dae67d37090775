import type { FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import type { AuthServices } from '../auth/index.js';
import type { SessionService } from '../auth/sessions.js';
import type { RealtimeHub } from './hub.js';
import { REALTIME_CLOSE, REALTIME_TIMING } from '../../ledger/contract/realtime.js';

/** How long a socket may stay silent before it is closed (the client's heartbeat is 30 s). */
const IDLE_MS = REALTIME_TIMING.idleMs;
/** How often the open sockets' sessions are checked for ends written by other processes. */
const SESSION_SWEEP_MS = 30_000;

/**
 * Closes the sockets whose session was revoked, or whose user was banned, by any process on
 * this database: one query for all open sockets' sessions. Ends made by this process close
 * their sockets at once (`SessionService.onEnded`); this catches the rest.
 */
export async function sweepEndedSessions(hub: RealtimeHub, sessions: Pick<SessionService, 'endedAmong'>): Promise<void> {
  const ids = hub.sessionIds();
  if (ids.length === 0) return;
  hub.endSessions(await sessions.endedAmong(ids));
}

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
      socket.close(REALTIME_CLOSE.serverError, 'server error');
    },
  });
  const stopListening = auth.sessions.onEnded((ended) =>
    'sessionId' in ended ? hub.endSessions([ended.sessionId]) : hub.endUser(ended.userId, ended.except),
  );
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepEndedSessions(hub, auth.sessions)
      .catch((error: unknown) => app.log.warn({ err: error }, 'realtime session sweep failed'))
      .finally(() => (sweeping = false));
  }, SESSION_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    stopListening();
    hub.closeAll();
  });
  app.get('/realtime/v1', { websocket: true }, async (socket, request) => {
    const token = (request.query as { token?: string }).token;
    let userId: string;
    let sessionId: string;
    let expiresAt: number;
    try {
      if (!token) throw new Error('no token');
      request.headers.authorization = `Bearer ${token}`;
      ({ userId, sessionId } = await auth.guard.authenticate(request));
      const exp = app.jwt.decode<{ exp?: number }>(token)?.exp;
      if (typeof exp !== 'number') throw new Error('no expiry');
      expiresAt = exp * 1000;
    } catch {
      socket.close(REALTIME_CLOSE.unauthorized, 'unauthorized');
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    // Closed (4401) when the token expires or the session ends: the client comes back with a fresh token.
    hub.add(socket, { userId, sessionId, expiresAt });
    // An end announced while the token was being checked came before this socket was in the hub,
    // so it closed nothing: look once more, now that the socket is there to be closed.
    auth.sessions.endedAmong([sessionId]).then(
      (ended) => hub.endSessions(ended),
      (error: unknown) => app.log.warn({ err: error }, 'realtime session check failed'),
    );
    let idle = setTimeout(() => socket.close(REALTIME_CLOSE.idle, 'idle'), IDLE_MS);
    socket.on('message', (raw) => {
      clearTimeout(idle);
      idle = setTimeout(() => socket.close(REALTIME_CLOSE.idle, 'idle'), IDLE_MS);
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
      hub.remove(socket);
    });
    socket.send(JSON.stringify({ type: 'ready' }));
  });
}

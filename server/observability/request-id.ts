import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * What an incoming `X-Request-Id` must look like to be taken as is: a proxy's or a client's
 * id (a UUID, a hex trace id, `req-…`) of printable, log-safe characters. Anything else (too
 * long, spaces, quotes, control characters) is replaced by a new UUID.
 */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Whether the peer of a connection is a proxy TRUST_PROXY names: with a hop count the nearest
 * hop is one, with a list of addresses and blocks the peer must be in it; without, none is.
 */
export function trustedPeer(setting: false | number | string[] | undefined): (address: string | undefined) => boolean {
  if (typeof setting === 'number') return () => setting > 0;
  if (!setting || setting.length === 0) return () => false;
  const inList = proxyAddr.compile(setting);
  return (address) => address !== undefined && inList(address, 0);
}

/**
 * Fastify's `genReqId`: an id sent by a trusted proxy (TRUST_PROXY) when it is a sane one, else a
 * new UUID. A client's own X-Request-Id is never taken: it becomes the correlation id of the events
 * the request causes, which only the server (or the proxy in front of it) may choose.
 */
export function requestIdOf(trusted: (address: string | undefined) => boolean = () => false) {
  return (req: IncomingMessage): string => {
    const given = req.headers[REQUEST_ID_HEADER];
    return typeof given === 'string' && VALID_REQUEST_ID.test(given) && trusted(req.socket?.remoteAddress) ? given : randomUUID();
  };
}

const current = new AsyncLocalStorage<string>();

/** The id of the request being served (for the correlation id of the events it causes), if any. */
export function currentRequestId(): string | undefined {
  return current.getStore();
}

/**
 * Every answer carries its request id, and the handler runs with that id in scope so that
 * the events it causes are correlated with the request (and its log lines, which fastify
 * tags with `reqId`).
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // After the body is read (its stream events run outside any request scope), so the
  // remaining hooks and the handler run inside it.
  app.addHook('preHandler', (request, _reply, done) => {
    current.run(request.id, done);
  });
}

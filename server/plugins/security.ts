import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import { HttpError } from '../errors.js';

// eslint-disable-next-line no-control-regex -- NUL is what it looks for: PostgreSQL cannot store it in text
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Query parameters that carry a secret: sign-up links and the realtime socket put tokens in the URL. */
const SECRET_PARAMS = /^(token|access_token|refresh_token|code|password|secret|key|signature)$/i;

/** A request URL fit for the log: the values of secret-bearing query parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed escape: judge the raw name
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

/** Fastify's request log line, with the URL's secrets left out. */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export const UNSTORABLE_MESSAGE = 'The request contains characters that are not allowed.';

/**
 * `text` cut to at most `max` UTF-16 units without splitting a character: a cut between the
 * two halves of a surrogate pair would leave a lone surrogate, which PostgreSQL refuses.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** True when a string anywhere in a parsed body holds a character PostgreSQL cannot store. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [k, v] of Object.entries(value)) if (UNSTORABLE.test(k) || hasUnstorableText(v, depth + 1)) return true;
  return false;
}

/**
 * The content security policy the built client runs under. Scripts only from our own
 * origin (no inline script, no eval), so an injected `<script>` or `onerror=` attribute does
 * not run; styles may be inline because the captcha widget injects its own; images may be
 * data: URLs (QR codes, the favicon); workers from our origin or blob: (the proof-of-work
 * solver); the only connections are to our own API and WebSocket.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
} as const;

export interface RouteEntry {
  method: string;
  url: string;
  schema?: RouteOptions['schema'] & { body?: unknown; params?: unknown; querystring?: unknown };
  websocket: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes registered after the security plugin (all of the app's own). */
    routeInventory: RouteEntry[];
  }
}

/**
 * The headers a helmet middleware sets, worked out once: with options that hold no function
 * its answer is the same for every request, so running it per request (building the policy
 * text each time) is wasted work.
 */
function headersOf(middleware: ReturnType<typeof helmet>): { set: [string, string][]; removed: string[] } {
  const set = new Map<string, string>();
  const removed = new Set<string>();
  const response = {
    setHeader: (name: string, value: unknown) => {
      set.set(name.toLowerCase(), String(value));
      removed.delete(name.toLowerCase());
    },
    removeHeader: (name: string) => {
      set.delete(name.toLowerCase());
      removed.add(name.toLowerCase());
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return { set: [...set], removed: [...removed] };
}

/**
 * Security headers on every answer (helmet) and no cross-origin access: the client is
 * served from the API's own origin, so no CORS header is ever sent and a page on another
 * origin cannot read an answer (docs/decisions.md, "Tokens in localStorage").
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  // Every route the app serves, with its schema, so that the authorisation and input suites
  // can prove they cover all of them (tests/reliability).
  const inventory: RouteEntry[] = [];
  app.decorate('routeInventory', inventory);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue; // the automatic twin of a GET route
      inventory.push({
        method,
        url: route.url,
        schema: route.schema as RouteEntry['schema'],
        websocket: Boolean((route as { websocket?: boolean }).websocket),
      });
    }
  });
  // The headers are worked out once here (`headersOf`); each answer only gets them set.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: CONTENT_SECURITY_POLICY as unknown as Record<string, string[] | null>,
    },
    // Cross-origin isolation headers would block the data: QR images in some browsers; not needed.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    frameguard: { action: 'deny' },
  });
  const { set, removed } = headersOf(securityHeaders);
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of set) raw.setHeader(name, value);
    done();
  });
  // PostgreSQL cannot store a NUL character or a lone UTF-16 surrogate (text and jsonb refuse
  // them): such a request would fail halfway with a 500. Refuse it before any handler runs.
  app.addHook('preValidation', async (request) => {
    if (hasUnstorableText(request.body) || hasUnstorableText(request.query) || hasUnstorableText(request.params)) {
      throw new HttpError(400, UNSTORABLE_MESSAGE);
    }
  });
  // A preflight from a foreign origin finds no route and no Access-Control-Allow-* header.
}

import type { FastifyInstance, RouteOptions } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

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
      inventory.push({ method, url: route.url, schema: route.schema as RouteEntry['schema'], websocket: Boolean((route as { websocket?: boolean }).websocket) });
    }
  });
  await app.register(fastifyHelmet, {
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
  // A preflight from a foreign origin finds no route and no Access-Control-Allow-* header.
}

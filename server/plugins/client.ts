import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * The repository's root: the nearest folder above this file with a package.json. This file runs
 * from server/plugins/ (tests, the CLI) or from build/server/plugins/ (plain node).
 */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const CLIENT_DIST = path.join(projectRoot(path.dirname(fileURLToPath(import.meta.url))), 'web/dist');
const API_PREFIXES = ['/api/', '/functions/', '/auth/', '/realtime/', '/docs/', '/healthz/', '/livez/', '/readyz/', '/metrics/', '/dev/'];

/**
 * Serves the built client and answers unknown non-API paths with index.html, so that
 * the client's router (not the server) shows its 404 page. Unknown API paths get JSON.
 */
export async function registerClient(app: FastifyInstance, distDir = CLIENT_DIST): Promise<void> {
  const hasClient = fs.existsSync(path.join(distDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Files are looked up per request, so a client rebuilt while the server runs is served at once.
      wildcard: true,
      index: ['index.html'],
      // The build writes .br and .gz beside each file (web/vite-precompress.ts): sent as they are,
      // by the request's Accept-Encoding, with Content-Encoding and Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders(res, filePath) {
        // Hashed assets never change; index.html must be re-read to pick up new builds.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    const isApi = API_PREFIXES.some((p) => url.startsWith(p) || url === p.slice(0, -1));
    if (!isApi && hasClient && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ error: `No route for ${request.method} ${url}` });
  });
}

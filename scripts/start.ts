import { buildClientIfNeeded } from './build-client.js';
import { buildServer } from './build-server.js';

// `npm start`, first half: build the client if needed and the server's bundle; the second
// half (package.json) runs the bundle with plain node, which migrates and serves API and
// client on one port.
buildClientIfNeeded();
await buildServer('server/main.ts', 'build/server/main.mjs');

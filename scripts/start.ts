import { buildClientIfNeeded } from './build-client.js';
import { buildServer } from './build-server.js';

// `npm start`, first half: build the client if needed and the server's JavaScript (build/);
// the second half (package.json) runs build/server/main.js with plain node, which migrates and
// serves API and client on one port.
buildClientIfNeeded();
await buildServer('server/main.ts');

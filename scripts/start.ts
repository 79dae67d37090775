import { buildClientIfNeeded } from './build-client.js';
import { main } from '../server/main.js';

// `npm start`: build the client if needed, then migrate and serve API and client on one port.
buildClientIfNeeded();
await main();

/** The real server entry, run as a child process by the crash suite (without the client build). */
import { main } from '../../server/main.js';

await main();

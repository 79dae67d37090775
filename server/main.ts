import { ConfigError, demoUsersWanted, loadConfig } from './config.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { buildApp } from './app.js';
import { configureHeap } from './heap.js';
import { listenRefusal, preflight } from './preflight.js';

/** Starts the server: parse config, open and migrate the database, project, listen. */
export async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
    await preflight(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  configureHeap(config.HEAP_GROWING_PERCENT);
  let app;
  try {
    app = await buildApp(config);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
      process.exit(3);
    }
    // A dependency found unusable while opening (Redis), or a value only the opened parts can check
    // (EVENTSTORE_URL as the client reads it): one line, as for a bad value.
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  if (demoUsersWanted(config)) {
    const { ensureDemoUsers } = await import('./auth/staff-accounts.js');
    const demo = await ensureDemoUsers(app.ledger.database.db, app.authServices.accounts, config.DATA_DIR);
    if (demo) console.log(`${demo}\n(also written to ${config.DATA_DIR}/demo-users.txt)`);
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ host: config.HOST, port: config.PORT });
  } catch (err) {
    // Taken since preflight tried it (another process was quicker): the same one line.
    const refusal = listenRefusal(err, config.HOST, config.PORT);
    if (!refusal) throw err;
    console.error(refusal.message);
    await app.close();
    process.exit(2);
  }
  const where = config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`;
  // The port bound, which PORT=0 leaves to the system.
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  console.log(`wallet-ledger listening on http://${config.HOST}:${port} (${where}, event store: ${app.ledger.store.name})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

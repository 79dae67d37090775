import type { Config } from '../server/config.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { openEventStore } from '../server/context.js';
import type { EventStore } from '../ledger/event-store/port.js';

/** Runs an operator command on the configured database and event store, migrated, and closes both after it. */
export async function withLedger<T>(config: Config, fn: (database: Database, store: EventStore) => Promise<T>): Promise<T> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const store = await openEventStore(config, database);
  try {
    await migrateToLatest(database.db);
    return await fn(database, store);
  } finally {
    await store.close();
    await database.close();
  }
}

import { eventStoreContract } from './contract.js';
import { PostgresEventStore } from './postgres.js';
import { createTestDatabase, usingPostgres } from '../../tests/support/test-database.js';
import { EventStoreDbEventStore } from './eventstoredb.js';

eventStoreContract(usingPostgres ? 'postgres (PostgreSQL server)' : 'postgres (PGlite)', async () => {
  const database = await createTestDatabase();
  const store = new PostgresEventStore(database.db);
  return { store, close: async () => { await store.close(); await database.close(); } };
});

if (process.env.EVENTSTORE_URL) {
  eventStoreContract('eventstoredb', async () => {
    const store = new EventStoreDbEventStore(process.env.EVENTSTORE_URL!);
    return { store, close: () => store.close() };
  });
}

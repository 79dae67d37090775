import { ConfigError, type Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import type { EventStore } from '../ledger/event-store/port.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { CommandHandler, type CommandContext, type CommandResult } from '../ledger/command-handler.js';
import type { Decider, DomainEvent } from '../ledger/decider.js';
import { Projector } from '../projections/registry.js';

/** The long-lived parts of a running ledger: database, event store, command handler, projections. */
export interface LedgerContext {
  config: Config;
  database: Database;
  store: EventStore;
  commands: CommandHandler;
  projector: Projector;
  /** Runs a command and answers once the read tables show it (bounded by PROJECTION_WAIT_MS). */
  execute<Command, Event extends DomainEvent, State>(
    decider: Decider<Command, Event, State>,
    id: string,
    command: Command,
    ctx: CommandContext,
  ): Promise<CommandResult<Event> & { visible: boolean }>;
  close(): Promise<void>;
}

/** The EventStoreDB client (and its gRPC stack) is only loaded when it is configured. */
export async function openEventStore(config: Pick<Config, 'EVENTSTORE_URL'>, database: Database): Promise<EventStore> {
  if (!config.EVENTSTORE_URL) return new PostgresEventStore(database.db);
  const { EventStoreDbEventStore, EventStoreUrlError } = await import('../ledger/event-store/eventstoredb.js');
  try {
    return new EventStoreDbEventStore(config.EVENTSTORE_URL);
  } catch (err) {
    // Refused at start in one line, as a bad value of the configuration is.
    if (err instanceof EventStoreUrlError) throw new ConfigError(`Invalid configuration:\n  EVENTSTORE_URL: ${err.message}`);
    throw err;
  }
}

export async function createLedgerContext(
  config: Config,
  opts: { database?: Database; startProjections?: boolean } = {},
): Promise<LedgerContext> {
  const database =
    opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DB_POOL_SIZE }));
  try {
    await migrateToLatest(database.db);
  } catch (err) {
    if (!opts.database) await database.close();
    throw err;
  }
  const store = await openEventStore(config, database);
  const commands = new CommandHandler(store);
  const projector = new Projector(database.projectionDb, store);
  if (opts.startProjections !== false) await projector.start();
  return {
    config,
    database,
    store,
    commands,
    projector,
    async execute(decider, id, command, ctx) {
      const result = await commands.handle(decider, id, command, ctx);
      const visible = result.position ? await projector.waitFor(result.position, config.PROJECTION_WAIT_MS) : true;
      return { ...result, visible };
    },
    async close() {
      await projector.stop();
      await store.close();
      if (!opts.database) await database.close();
    },
  };
}

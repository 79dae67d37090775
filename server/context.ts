import { ConfigError, type Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { DuplicateEventIdError, WrongExpectedVersionError, type EventStore } from '../ledger/event-store/port.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { PostgresSnapshotStore } from '../ledger/snapshots/postgres-snapshots.js';
import { CommandHandler, type CommandContext, type CommandResult } from '../ledger/command-handler.js';
import type { Decider, DomainEvent } from '../ledger/decider.js';
import { Projector } from '../projections/registry.js';
import { currentRequestId } from './observability/request-id.js';

/** What the metrics (server/observability/metrics.ts) are told by the ledger. */
export interface LedgerObserver {
  command(type: string, outcome: 'accepted' | 'replayed' | 'unchanged' | 'refused' | 'conflict' | 'error', seconds: number): void;
  conflict(category: string, retried: boolean): void;
  storeError(operation: string): void;
}

/** Errors the event store raised for a reason other than the caller's expectation (outage, bug). */
const storeFailures = new WeakSet<object>();

/** The store with every failed call (other than a conflict) told to the observer. */
function observedStore(store: EventStore, observer: LedgerObserver): EventStore {
  const failed = (operation: string) => (err: unknown) => {
    if (!(err instanceof WrongExpectedVersionError || err instanceof DuplicateEventIdError)) {
      observer.storeError(operation);
      if (typeof err === 'object' && err !== null) storeFailures.add(err);
    }
    throw err;
  };
  const overrides: Partial<EventStore> = {
    append: (streamId, events, options) => store.append(streamId, events, options).catch(failed('append')),
    readStream: (streamId, options) => store.readStream(streamId, options).catch(failed('readStream')),
    readAll: (options) => store.readAll(options).catch(failed('readAll')),
    headPosition: () => store.headPosition().catch(failed('headPosition')),
    committedHead: () => store.committedHead().catch(failed('committedHead')),
    subscribeAll(options) {
      const subscription = store.subscribeAll(options);
      const nextBatch = subscription.nextBatch.bind(subscription);
      subscription.nextBatch = (max) => nextBatch(max).catch(failed('subscribe'));
      return subscription;
    },
  };
  // A proxy, so that the adapter's own members and `instanceof` still answer as before.
  return new Proxy(store, {
    get(target, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof EventStore];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function outcomeOf(err: unknown): 'refused' | 'conflict' | 'error' {
  if (err instanceof WrongExpectedVersionError) return 'conflict';
  if (typeof err === 'object' && err !== null && storeFailures.has(err)) return 'error';
  return 'refused';
}

/** What a command recorded, as `LedgerContext.onRecorded` listeners are told it. */
export interface RecordedCommand {
  /** The decider's category ('wallet', 'user', …) and the aggregate's id (a user's id for both). */
  category: string;
  id: string;
  events: DomainEvent[];
  eventIds: string[];
}

/** Reacts to what a command recorded (a mail); must not throw. */
export type RecordedListener = (recorded: RecordedCommand) => Promise<void> | void;

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
  /**
   * Tells `listener` of every command `execute` runs that records events, once the read tables
   * show them (bounded by PROJECTION_WAIT_MS) and before `execute` answers; never of a retried
   * command answered with the first one's events. Answers its removal.
   */
  onRecorded(listener: RecordedListener): () => void;
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
    if (err instanceof EventStoreUrlError)
      throw new ConfigError(`Invalid configuration: EVENTSTORE_URL: ${err.message.replace(/\s+/g, ' ')}`);
    throw err;
  }
}

export async function createLedgerContext(
  config: Config,
  opts: { database?: Database; startProjections?: boolean; observer?: LedgerObserver } = {},
): Promise<LedgerContext> {
  const database =
    opts.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: config.DB_POOL_SIZE,
      preparedStatements: config.DB_PREPARED_STATEMENTS === 'true',
      checkoutTimeoutMs: config.DB_CHECKOUT_TIMEOUT_MS,
    }));
  try {
    await migrateToLatest(database.db);
  } catch (err) {
    if (!opts.database) await database.close();
    throw err;
  }
  const observer = opts.observer;
  const opened = await openEventStore(config, database);
  const store = observer ? observedStore(opened, observer) : opened;
  const commands = new CommandHandler(store, {
    ...(observer ? { onConflict: (category: string, retried: boolean) => observer.conflict(category, retried) } : {}),
    ...(config.SNAPSHOT_EVERY > 0 ? { snapshots: { store: new PostgresSnapshotStore(database.db), every: config.SNAPSHOT_EVERY } } : {}),
  });
  const projector = new Projector(database.projectionDb, store);
  if (opts.startProjections !== false) await projector.start();
  const listeners = new Set<RecordedListener>();
  return {
    config,
    database,
    store,
    commands,
    projector,
    async execute(decider, id, command, ctx) {
      // The events a request causes carry its request id as their correlation id.
      const correlationId = ctx.correlationId ?? currentRequestId();
      const withRequest = correlationId ? { ...ctx, correlationId } : ctx;
      const type = String((command as { type?: unknown }).type ?? decider.category);
      const started = performance.now();
      let result;
      try {
        result = await commands.handle(decider, id, command, withRequest);
      } catch (err) {
        observer?.command(type, outcomeOf(err), (performance.now() - started) / 1000);
        throw err;
      }
      observer?.command(
        type,
        result.replayed ? 'replayed' : result.events.length ? 'accepted' : 'unchanged',
        (performance.now() - started) / 1000,
      );
      const visible = result.position ? await projector.waitFor(result.position, config.PROJECTION_WAIT_MS) : true;
      if (!result.replayed && result.events.length > 0) {
        const recorded = { category: decider.category, id, events: result.events, eventIds: result.eventIds };
        // What was recorded stands: a failing listener does not turn the command into an error.
        for (const listener of listeners) await (async () => listener(recorded))().catch(() => {});
      }
      return { ...result, visible };
    },
    onRecorded(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      await projector.stop();
      await commands.flushSnapshots();
      await store.close();
      if (!opts.database) await database.close();
    },
  };
}

import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../server/config.js';
import { DataDirLockedError } from '../server/db/data-dir-lock.js';
import { openDatabase, type Database } from '../server/db/database.js';
import { migrateToLatest, migrationStatus } from '../migrations/index.js';
import { formatPosition, START, type EventStore, type Position } from '../ledger/event-store/port.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { describeEventStore, eventStoreState } from '../ledger/event-store/state.js';
import { findProjection, PROJECTIONS } from '../projections/registry.js';
import { ProjectionRunner } from '../projections/runner.js';
import { replayProjections, type ReplayResult } from '../projections/replay.js';
import type { Projection } from '../projections/projection.js';
import { shadowReplay } from '../projections/shadow-replay.js';
import { verifyReadModels } from '../projections/verify.js';
import { seedLedger } from './seed.js';
import { sealLog, UnchainedLogError, verifyLog } from '../ledger/audit/log-seal.js';
import { printLogVerification, printReplay, printVerify } from './ledger-reports.js';
import { backfillChains } from '../ledger/event-store/postgres-backfill.js';
import { progressBar } from './progress.js';
import { withLedger } from './with-ledger.js';
import { backupDataDir, restoreDataDir } from './ledger-backup.js';
import { FINANCE_OPTIONS, runFinanceCommand } from './ledger-finance.js';
import { STAFF_OPTIONS, staffActionsCommand } from './ledger-staff.js';
import { BOOKS_ARGUMENTS, BOOKS_OPTIONS, runBooksCommand } from './ledger-books.js';
import { HELP } from './ledger-help.js';

/** True when this file is the process's command (`npm run ledger`), not imported by a test. */
const RUN_AS_COMMAND = import.meta.url === `file://${process.argv[1]}`;
/** The priority of a shadow replay's process: below the app's (0), which it must not slow down. */
const SHADOW_NICE = 10;

class UsageError extends Error {}

/** How long `stats` waits for the event store to answer before calling it unreachable. */
const STATS_TIMEOUT_MS = 5_000;

async function countAfter(database: Database, store: EventStore, position: Position): Promise<number> {
  if (store instanceof PostgresEventStore) {
    const { rows } = await sql<{ n: string }>`
      select count(*) as n from events
      where (tx_id, global_position) > (${position.commit.toString()}::text::xid8, ${position.prepare.toString()}::bigint)`.execute(
      database.db,
    );
    return Number(rows[0]!.n);
  }
  return (await store.readAll({ after: position, maxCount: 100_000 })).length;
}

/**
 * Events after `position` that `projection` handles: its lag. The live loop writes a read
 * model's checkpoint only with a page that holds some of its own events, so events it does
 * not handle (a sign-in, for the balances) may follow its checkpoint on a caught-up read model
 * and are not lag.
 */
async function lagOf(database: Database, store: EventStore, projection: Projection, position: Position): Promise<number> {
  if (store instanceof PostgresEventStore) {
    const { rows } = await sql<{ event_type: string; n: string }>`
      select event_type, count(*) as n from events
      where (tx_id, global_position) > (${position.commit.toString()}::text::xid8, ${position.prepare.toString()}::bigint)
      group by event_type`.execute(database.db);
    return rows.reduce((sum, r) => sum + (projection.handles(r.event_type) ? Number(r.n) : 0), 0);
  }
  return (await store.readAll({ after: position, maxCount: 100_000 })).filter((e) => projection.handles(e.type)).length;
}

async function catchUpLive(database: Database, store: EventStore, quiet: boolean): Promise<void> {
  for (const projection of PROJECTIONS) {
    const runner = new ProjectionRunner(database.projectionDb, store, projection, { batchSize: 5000 });
    const bar = progressBar(`projecting ${projection.name}`, null, { quiet });
    const n = await runner.catchUp({ onBatch: (done) => bar.update(done) });
    bar.finish(n);
  }
}

const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2);

export async function runCli(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      events: { type: 'string' },
      seed: { type: 'string' },
      role: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      shadow: { type: 'boolean' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      status: { type: 'boolean' },
      backfill: { type: 'boolean' },
      seal: { type: 'string' },
      'without-keys': { type: 'boolean' },
      ...FINANCE_OPTIONS,
      ...STAFF_OPTIONS,
      ...BOOKS_OPTIONS,
    },
  });
  const [command = '', ...rest] = positionals;
  if (values.help || command === '' || command === 'help') {
    console.log(HELP[command === 'help' ? (rest[0] ?? '') : command] ?? HELP['']);
    return command === '' && !values.help ? 2 : 0;
  }
  if (!(command in HELP)) throw new UsageError(`Unknown command "${command}". Run \`npm run ledger -- --help\`.`);
  const allowed = command === 'replay' ? 1 : (BOOKS_ARGUMENTS[command] ?? 0);
  if (rest.length > allowed)
    throw new UsageError(`Unexpected argument "${rest[allowed]}" for ${command}. Run \`npm run ledger -- ${command} --help\`.`);
  const config = loadConfig();
  const quiet = Boolean(values.json);
  const finance = runFinanceCommand(command, config, values);
  if (finance) return finance;
  if (command === 'staff-actions') return staffActionsCommand(config, values);
  const books = runBooksCommand(command, config, values, rest);
  if (books) return books;

  switch (command) {
    case 'migrate': {
      const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
      try {
        if (values.status) {
          const status = await migrationStatus(database.db);
          if (values.json) console.log(json(status));
          else {
            for (const m of status.applied) console.log(`applied  ${m.name}  ${m.executedAt.toISOString()}`);
            for (const name of status.pending) console.log(`pending  ${name}`);
            console.log(`${status.applied.length} applied, ${status.pending.length} pending.`);
          }
          return 0;
        }
        const applied = await migrateToLatest(database.db);
        if (values.json) console.log(json({ applied }));
        else console.log(applied.length ? `Applied ${applied.join(', ')}.` : 'The database is up to date.');
      } finally {
        await database.close();
      }
      return 0;
    }
    case 'seed': {
      const events = Number.parseInt(values.events ?? '100000', 10);
      if (!Number.isInteger(events) || events < 1 || events > 50_000_000)
        throw new UsageError('--events must be a whole number from 1 to 50000000.');
      return withLedger(config, async (database, store) => {
        const bar = progressBar('seeding', events, { quiet });
        const result = await seedLedger(store, {
          events,
          seed: values.seed ? Number(values.seed) : undefined,
          onProgress: (n) => bar.update(n),
        });
        const timing = bar.finish(result.events);
        await catchUpLive(database, store, quiet);
        if (values.json) console.log(json({ ...result, eventsPerSecond: timing.eventsPerSecond }));
        else
          console.log(
            `Seeded ${result.events.toLocaleString('en-US')} events over ${result.wallets} wallets in ${result.seconds.toFixed(1)} s (${timing.eventsPerSecond.toLocaleString('en-US')} events/s).`,
          );
        return 0;
      });
    }
    case 'replay': {
      const name = rest[0] ?? 'all';
      const targets = name === 'all' ? PROJECTIONS : [findProjection(name)];
      if (targets.some((t) => !t))
        throw new UsageError(`Unknown read model "${name}". Known: ${PROJECTIONS.map((p) => p.name).join(', ')}, all.`);
      if (values.shadow) {
        // A rebuild beside a serving app yields the CPU to it: this process runs at a lower
        // priority (nice 10) when it is the command itself (docs/decisions.md).
        if (RUN_AS_COMMAND) os.setPriority(SHADOW_NICE);
        return withLedger(config, async (database, store) => {
          const bar = progressBar('rebuilding in shadow tables', await countAfter(database, store, START), { quiet });
          const r = await shadowReplay(database.db, store, {
            projections: targets as Projection[],
            onProgress: (_phase, n) => bar.update(n),
          });
          bar.finish(r.events);
          if (values.json) console.log(json(r));
          else
            console.log(
              `${r.projections.map((p) => p.name).join(', ')}: rebuilt from ${r.events.toLocaleString('en-US')} events in ${r.seconds.toFixed(2)} s and swapped in at ${r.projections.map((p) => p.position).join(', ')} (swap ${r.swapMs.toFixed(0)} ms, ${r.eventsAtSwap} events applied during it)`,
            );
          return 0;
        });
      }
      return withLedger(config, async (database, store) => {
        const head = await store.committedHead();
        const total = head ? await countAfter(database, store, START) : 0;
        // One pass over the log feeds every read model named.
        const bar = progressBar(`replaying ${targets.map((t) => t!.name).join(', ')}`, total, { quiet });
        const results: ReplayResult[] = await replayProjections(database.projectionDb, store, targets as Projection[], {
          until: head,
          onProgress: (n) => bar.update(n),
        });
        bar.finish(results[0]?.events ?? 0);
        // The most memory the process held (a rebuild's cost an operator sizes a machine by).
        const peakRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
        if (values.json) console.log(json({ position: head ? formatPosition(head) : null, results, peakRssMB }));
        else printReplay(results, peakRssMB);
        return 0;
      });
    }
    case 'verify': {
      if (values.seal !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.seal))
        throw new UsageError('--seal must be a digest printed by `ledger seal`: 64 hexadecimal characters.');
      return withLedger(config, async (database, store) => {
        const total = await countAfter(database, store, START);
        const t0 = performance.now();
        const chainBar = progressBar('recomputing the hash chains', total, { quiet });
        const log = await verifyLog(store, { keptDigest: values.seal, onProgress: (n) => chainBar.update(n) });
        chainBar.finish(log.events);
        const bars = new Map(PROJECTIONS.map((p) => [p.name, progressBar(`rebuilding ${p.name}`, total, { quiet })]));
        const report = await verifyReadModels(database.db, store, {
          onProgress: (name, n) => bars.get(name)?.update(n),
          separationDays: config.FOUR_EYES_SEPARATION_DAYS,
        });
        const seconds = (performance.now() - t0) / 1000;
        const ok = report.ok && log.ok;
        if (values.json) console.log(json({ ...report, log, ok, seconds }));
        else {
          if (!quiet && process.stderr.isTTY) process.stderr.write('\n');
          printLogVerification(log);
          printVerify(report);
          if (!log.ok) console.log('verify: FAILED: the event log is not the one that was written and sealed');
          console.log(
            `(${seconds.toFixed(1)} s, ${Math.round((total * PROJECTIONS.length) / Math.max(seconds, 1e-3)).toLocaleString('en-US')} events/s rebuilt)`,
          );
        }
        return ok ? 0 : 1;
      });
    }
    case 'seal':
      return withLedger(config, async (database, store) => {
        let backfilled = null;
        if (values.backfill) {
          if (!(store instanceof PostgresEventStore))
            throw new UsageError(
              '--backfill chains the events of the PostgreSQL (or embedded) log; EventStoreDB keeps its events as written.',
            );
          const bar = progressBar('chaining the events written before the chain', await countAfter(database, store, START), { quiet });
          backfilled = await backfillChains(database.db, (n) => bar.update(n));
          bar.finish(backfilled.events);
          if (!values.json)
            console.log(
              `Chained ${backfilled.events.toLocaleString('en-US')} events in ${backfilled.streams.toLocaleString('en-US')} streams.${backfilled.skipped.length ? ` Skipped (some events chained, some not; look at them): ${backfilled.skipped.join(', ')}.` : ''}`,
            );
        }
        let seal;
        try {
          seal = await sealLog(store, { id: `operator:${os.userInfo().username}`, role: 'OPERATOR' });
        } catch (err) {
          if (err instanceof UnchainedLogError) throw new UsageError(err.message);
          throw err;
        }
        if (values.json) console.log(json({ backfilled, seal }));
        else
          console.log(
            `Sealed the log: seal ${seal.sealNumber}, ${seal.events.toLocaleString('en-US')} events in ${seal.streams.toLocaleString('en-US')} streams up to ${seal.upTo}.\n` +
              `Digest: ${seal.digest}\n` +
              `Keep it outside the database (mail, a ticket, paper) with the seal's number and today's date; \`npm run ledger -- verify --seal ${seal.digest}\` proves the log up to this seal.`,
          );
        return 0;
      });
    case 'create-staff': {
      const role = values.role?.toUpperCase();
      if (role !== 'WORKER' && role !== 'MANAGER' && role !== 'ADMIN') throw new UsageError('--role must be WORKER, MANAGER or ADMIN.');
      if (!values.email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) throw new UsageError('--email must be an e-mail address.');
      if (!values.name?.trim()) throw new UsageError('--name is required.');
      const { createStaffFromCli } = await import('../server/auth/cli.js');
      const created = await createStaffFromCli(config, { email: values.email, fullName: values.name, role });
      if (values.json) console.log(json(created));
      else
        console.log(
          `Created ${role} ${values.email} (${created.userId}).\nOne-time password (shown only now; it must be changed at first sign-in): ${created.password}`,
        );
      return 0;
    }
    case 'backup':
    case 'restore': {
      if (config.DATABASE_URL) throw new UsageError('backup and restore are for the embedded database; back up PostgreSQL with pg_dump.');
      if (command === 'restore' && !values.from) throw new UsageError('--from FILE is required.');
      const keyOptions = { passphrase: process.env.BACKUP_PASSPHRASE, withoutKeys: values['without-keys'] };
      const result =
        command === 'backup'
          ? await backupDataDir(config.DATA_DIR, values.out, keyOptions)
          : await restoreDataDir(config.DATA_DIR, values.from!, { force: values.force, ...keyOptions });
      if (values.json) console.log(json(result));
      else if ('file' in result)
        console.log(
          `Backed up ${result.events.toLocaleString('en-US')} events to ${result.file} (${result.bytes.toLocaleString('en-US')} bytes, sha256 ${result.sha256}); keys: ${result.keys}.`,
        );
      else {
        const aside = [
          result.keptAside && `the previous database is kept in ${result.keptAside}`,
          result.keysKeptAside && `the previous keys in ${result.keysKeptAside}`,
        ].filter(Boolean);
        console.log(
          `Restored ${result.events.toLocaleString('en-US')} events from ${result.from}; keys: ${result.keys}${aside.length ? `; ${aside.join(', ')}` : ''}. Run \`npm run ledger -- verify\` next.`,
        );
      }
      return 0;
    }
    case 'stats':
      return withLedger(config, async (database, store) => {
        const { state: eventStore } = await eventStoreState(store, STATS_TIMEOUT_MS);
        if (!eventStore.reachable) {
          // Nothing else can be counted without the log: say which store does not answer, and fail.
          if (values.json) console.log(json({ database: database.kind, eventStore }));
          else console.log(`database ${database.kind}\n${describeEventStore(eventStore)}`);
          return 1;
        }
        const events = await countAfter(database, store, START);
        const streams = Number((await sql<{ n: string }>`select count(*) as n from streams`.execute(database.db)).rows[0]!.n);
        const cps = await database.db.selectFrom('projection_checkpoints').selectAll().execute();
        const projections = await Promise.all(
          PROJECTIONS.map(async (p) => {
            const cp = cps.find((c) => c.name === p.name);
            const at = cp ? { commit: BigInt(cp.commit_position), prepare: BigInt(cp.prepare_position) } : START;
            return {
              name: p.name,
              position: formatPosition(at),
              eventsApplied: Number(cp?.events_applied ?? 0),
              lag: await lagOf(database, store, p, at),
            };
          }),
        );
        const out = { database: database.kind, eventStore, events, streams, lastPosition: eventStore.head, projections };
        if (values.json) console.log(json(out));
        else {
          console.log(`database ${out.database}\n${describeEventStore(eventStore)}`);
          console.log(
            `events ${events.toLocaleString('en-US')}, streams ${streams.toLocaleString('en-US')}, last position ${out.lastPosition ?? '(empty)'}`,
          );
          for (const p of projections)
            console.log(
              `projection ${p.name}: at ${p.position}, ${p.eventsApplied.toLocaleString('en-US')} events applied, lag ${p.lag.toLocaleString('en-US')}`,
            );
        }
        return 0;
      });
  }
  return 2;
}

if (RUN_AS_COMMAND) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      if (
        err instanceof UsageError ||
        (err as Error).name === 'UsageError' ||
        err instanceof ConfigError ||
        err instanceof DataDirLockedError ||
        (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ||
        (err as { name?: string }).name === 'AuthError'
      ) {
        console.error(err.message);
        process.exit(2);
      }
      console.error(err);
      process.exit(1);
    },
  );
}

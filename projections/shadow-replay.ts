import { sql, type Kysely, type Transaction } from 'kysely';
import { assertValidEvents } from '../ledger/event-schemas.js';
import type { DB } from '../server/db/schema.js';
import { comparePositions, formatPosition, START, type EventStore, type Position } from '../ledger/event-store/port.js';
import { PostgresEventStore, readAllFrom } from '../ledger/event-store/postgres.js';
import type { Projection } from './projection.js';
import { PROJECTIONS } from './registry.js';
import { analyzeTables, catchUpTogether, setFillFactors } from './replay.js';

export const SHADOW_SCHEMA = 'ledger_shadow';
/** Where the swap moves the live tables it replaces; dropped once the swap has committed. */
const REPLACED_SCHEMA = 'ledger_replaced';

export interface ShadowReplayResult {
  /** Events read from the log while rebuilding (all catch-up passes). */
  events: number;
  /** Events applied inside the swap transaction to reach the live position. */
  eventsAtSwap: number;
  seconds: number;
  /** How long the swap took: its transaction, which holds the live read models' checkpoints, and any tries again. */
  swapMs: number;
  projections: { name: string; position: string; rows: Record<string, number> }[];
}

export interface ShadowReplayOptions {
  projections?: Projection[];
  batchSize?: number;
  onProgress?: (phase: 'rebuild' | 'catch-up' | 'swap', events: number) => void;
  /** Test hook: runs inside the swap transaction, after the live checkpoints are locked. */
  duringSwap?: () => Promise<void> | void;
}

/**
 * A rebuild beside the live app writes pages of 1,000 events and rests as long as each write
 * took. Measured against the commands' p99 without a rebuild (the growth benchmark at 10^5,
 * quiet machine): pages of 5,000 made it 2.6x to 3.1x, with or without rest; pages of 1,000
 * 1.2x to 1.7x, and with the rest 1.1x to 1.15x, the rebuild taking twice as long
 * (docs/performance.md).
 */
const SHADOW_BATCH = 1000;
const SHADOW_DUTY = 0.5;

/** Catch-up passes before the swap stop once a pass finds fewer new events than this. */
const SMALL_LAG = 2000;
const MAX_PASSES = 10;

/**
 * Rebuilds read models while the app keeps serving: the log is replayed into copies of
 * their tables in a scratch schema, caught up to the live position in passes, and then
 * swapped in by one transaction that
 *
 * 1. locks the live checkpoint rows (the live runners wait at their next batch; readers do not),
 * 2. applies to the copies the few events that the live tables show and the copies do not yet,
 * 3. puts the copies in the live tables' places (`exchangeTable`: by name, not by copying rows)
 *    and sets the live checkpoints to the copies' positions (readers wait for the commit, a
 *    matter of milliseconds, then read the new rows).
 *
 * The live runners then carry on from the same positions.
 */
export async function shadowReplay(db: Kysely<DB>, store: EventStore, opts: ShadowReplayOptions = {}): Promise<ShadowReplayResult> {
  const projections = opts.projections ?? PROJECTIONS;
  const batchSize = opts.batchSize ?? SHADOW_BATCH;
  const t0 = performance.now();
  await sql`drop schema if exists ${sql.id(SHADOW_SCHEMA)} cascade`.execute(db);
  await sql`drop schema if exists ${sql.id(REPLACED_SCHEMA)} cascade`.execute(db);
  await sql`create schema ${sql.id(SHADOW_SCHEMA)}`.execute(db);
  try {
    await sql`create table ${sql.table(`${SHADOW_SCHEMA}.projection_checkpoints`)} (like public.projection_checkpoints including all)`.execute(
      db,
    );
    for (const p of projections) {
      for (const t of p.tables) {
        await sql`create table ${sql.table(`${SHADOW_SCHEMA}.${t}`)} (like ${sql.table(`public.${t}`)} including all)`.execute(db);
      }
    }

    // Rebuild, then catch up in passes while the live app keeps appending.
    let events = 0;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const phase = pass === 0 ? 'rebuild' : 'catch-up';
      const { events: n } = await catchUpTogether(db, store, projections, {
        schema: SHADOW_SCHEMA,
        batchSize,
        duty: SHADOW_DUTY,
        onProgress: (done) => opts.onProgress?.(phase, events + done),
      });
      events += n;
      if (pass > 0 && n < SMALL_LAG) break;
    }

    // Live checkpoint rows exist for every read model, so that they can be locked. The copies'
    // statistics are gathered now, so that the first reads after the swap are planned on them,
    // and their rows counted (the swap's own catch-up adds at most a few).
    // The copies were written packed (LIKE leaves their fill factor at 100); live, they keep their own.
    await setFillFactors(db, projections, SHADOW_SCHEMA, false);
    await analyzeTables(db, projections, SHADOW_SCHEMA);
    const rowsBefore = new Map<string, number>();
    for (const p of projections) {
      await sql`insert into projection_checkpoints (name) values (${p.name}) on conflict (name) do nothing`.execute(db);
      for (const t of p.tables) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(`${SHADOW_SCHEMA}.${t}`)}`.execute(db);
        rowsBefore.set(t, Number(rows[0]!.n));
      }
    }
    const swapStart = performance.now();
    let eventsAtSwap = 0;
    const swapOnce = (first: boolean) =>
      db.transaction().execute(async (trx) => {
        eventsAtSwap = 0;
        // Every wait for a lock is short: past it the swap rolls back and tries again (SWAP_LOCK_WAIT_MS).
        await sql`select set_config('lock_timeout', ${`${SWAP_LOCK_WAIT_MS}ms`}, true)`.execute(trx);
        const live = await trx
          .selectFrom('projection_checkpoints')
          .select(['name', 'commit_position', 'prepare_position'])
          .where(
            'name',
            'in',
            projections.map((p) => p.name),
          )
          .orderBy('name')
          .forUpdate()
          .execute();
        await sql`create schema ${sql.id(REPLACED_SCHEMA)}`.execute(trx);
        if (first) await opts.duringSwap?.();
        await lockLiveTables(
          trx,
          projections.flatMap((p) => p.tables),
        );
        const out: { name: string; position: Position; rows: Record<string, number> }[] = [];
        for (const p of projections) {
          const row = live.find((r) => r.name === p.name);
          const livePosition = row ? { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) } : START;
          const { position, applied } = await catchUpInside(trx, store, p, livePosition, batchSize);
          eventsAtSwap += applied;
          const rows: Record<string, number> = {};
          for (const t of p.tables) {
            await exchangeTable(trx, t);
            rows[t] = rowsBefore.get(t)!;
          }
          await trx
            .updateTable('projection_checkpoints')
            .set({ commit_position: position.commit.toString(), prepare_position: position.prepare.toString(), updated_at: new Date() })
            .where('name', '=', p.name)
            .execute();
          out.push({ name: p.name, position, rows });
        }
        return out;
      });
    let positions: Awaited<ReturnType<typeof swapOnce>> | undefined;
    for (let attempt = 1; positions === undefined; attempt++) {
      try {
        positions = await swapOnce(attempt === 1);
      } catch (err) {
        if (!gaveWay(err) || attempt >= SWAP_ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, SWAP_LOCK_WAIT_MS * Math.random()));
      }
    }
    const swapMs = performance.now() - swapStart;
    opts.onProgress?.('swap', events + eventsAtSwap);
    return {
      events,
      eventsAtSwap,
      seconds: (performance.now() - t0) / 1000,
      swapMs,
      projections: positions.map((p) => ({ name: p.name, position: formatPosition(p.position), rows: p.rows })),
    };
  } finally {
    await sql`drop schema if exists ${sql.id(SHADOW_SCHEMA)} cascade`.execute(db);
    await sql`drop schema if exists ${sql.id(REPLACED_SCHEMA)} cascade`.execute(db);
  }
}

/**
 * The swap takes its locks one at a time, and so does a reader's statement, each in its own
 * order: a profile read that held `users` and waited for `balances`, which the swap had
 * moved, while the swap waited for `users`, was a deadlock, and PostgreSQL broke it after
 * `deadlock_timeout` (1 s by default) by failing the read. So the swap locks every live table
 * and the views on them in one statement, waits at most SWAP_LOCK_WAIT_MS for any lock and
 * that statement as long, and rolls back and tries again past it: a reader waits for the swap
 * a fraction of a second at worst, and it is always the swap that gives way.
 */
const SWAP_LOCK_WAIT_MS = 250;
const SWAP_ATTEMPTS = 40;

/** A lock the swap did not get in time (lock_timeout, or statement_timeout on the lock statement). */
function gaveWay(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '55P03' || code === '57014';
}

/** Inside the swap transaction, before anything is moved: the live tables and the views over them. */
async function lockLiveTables(trx: Transaction<DB>, tables: string[]): Promise<void> {
  const views = await viewsOn(trx, tables);
  const all = [...tables.map((t) => `public.${t}`), ...views.map((v) => v.name)].map((n) => sql.table(n));
  await sql`select set_config('statement_timeout', ${`${SWAP_LOCK_WAIT_MS}ms`}, true)`.execute(trx);
  await sql`lock table ${sql.join(all)} in access exclusive mode`.execute(trx);
  await sql`select set_config('statement_timeout', '0', true)`.execute(trx);
}

/**
 * Inside the swap transaction: the rebuilt copy takes the live table's place, by name. The live
 * table moves aside (to REPLACED_SCHEMA, dropped after the commit) and the copy moves into
 * `public`; its indexes take the live ones' names (the migrations name them), and the views
 * over the table are defined again on it. Moving a table is a change of its catalog entries,
 * not of its rows: the swap takes milliseconds whatever the table's size (copying the rows took
 * 8.9 s at 10^6 events, during which every answer that waits for the read models waited).
 * Readers wait for the commit (the move locks the table), then read the new rows.
 */
async function exchangeTable(trx: Transaction<DB>, table: string): Promise<void> {
  const live = sql.table(`public.${table}`);
  const views = await viewsOn(trx, [table]);
  const liveIndexes = await indexesOf(trx, 'public', table);
  await sql`alter table ${live} set schema ${sql.id(REPLACED_SCHEMA)}`.execute(trx);
  await sql`alter table ${sql.table(`${SHADOW_SCHEMA}.${table}`)} set schema public`.execute(trx);
  const copyIndexes = await indexesOf(trx, 'public', table);
  for (const [shape, name] of liveIndexes) {
    const copy = copyIndexes.get(shape);
    if (copy === undefined) throw new Error(`shadow replay: the copy of ${table} has no index like ${name}`);
    if (copy !== name) await sql`alter index ${sql.table(`public.${copy}`)} rename to ${sql.id(name)}`.execute(trx);
  }
  for (const v of views) await sql`create or replace view ${sql.table(v.name)} as ${sql.raw(v.definition)}`.execute(trx);
}

/** The views over the live `tables` (their schema-qualified names and definitions). */
async function viewsOn(trx: Transaction<DB>, tables: string[]): Promise<{ name: string; definition: string }[]> {
  const { rows } = await sql<{ name: string; definition: string }>`
    select distinct n.nspname || '.' || v.relname as name, pg_get_viewdef(v.oid) as definition
    from pg_depend d
    join pg_rewrite r on r.oid = d.objid
    join pg_class v on v.oid = r.ev_class
    join pg_namespace n on n.oid = v.relnamespace
    where d.classid = 'pg_rewrite'::regclass and d.refobjid = any(${tables.map((t) => `public.${t}`)}::regclass[])
      and v.oid <> d.refobjid and v.relkind = 'v'`.execute(trx);
  return rows;
}

/** A table's indexes by their definition without their name (what LIKE copies): shape -> name. */
async function indexesOf(trx: Transaction<DB>, schema: string, table: string): Promise<Map<string, string>> {
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes where schemaname = ${schema} and tablename = ${table}`.execute(trx);
  return new Map(rows.map((r) => [r.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, '$1'), r.indexname]));
}

/**
 * Inside the swap transaction: applies to the copy the events after its checkpoint up to the
 * live position (all committed already: the live runner has read them). A copy that is
 * ahead of the live tables stays where it is; the live runner will follow it.
 */
async function catchUpInside(trx: Transaction<DB>, store: EventStore, projection: Projection, livePosition: Position, batchSize: number) {
  // The log in PostgreSQL is read through the transaction itself (PGlite is one session).
  const read = (after: Position) =>
    store instanceof PostgresEventStore ? readAllFrom(trx, after, batchSize) : store.readAll({ after, maxCount: batchSize });
  const cp = await trx
    .withSchema(SHADOW_SCHEMA)
    .selectFrom('projection_checkpoints')
    .select(['commit_position', 'prepare_position'])
    .where('name', '=', projection.name)
    .executeTakeFirst();
  let position: Position = cp ? { commit: BigInt(cp.commit_position), prepare: BigInt(cp.prepare_position) } : START;
  let applied = 0;
  while (comparePositions(position, livePosition) < 0) {
    const page = (await read(position)).filter((e) => comparePositions(e.position, livePosition) <= 0);
    if (page.length === 0) break;
    const relevant = page.filter((e) => projection.handles(e.type));
    assertValidEvents(relevant);
    if (relevant.length > 0) await projection.apply({ trx, schema: SHADOW_SCHEMA }, relevant);
    applied += page.length;
    position = page[page.length - 1]!.position;
  }
  return { position, applied };
}

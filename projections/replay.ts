import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../ledger/event-store/port.js';
import type { Projection } from './projection.js';
import { assertValidEvents } from '../ledger/event-schemas.js';
import { ProjectionRunner, readUntil } from './runner.js';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReplayResult {
  name: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

export interface ReplayOptions {
  batchSize?: number;
  /** Replay up to here (inclusive); default the head of the log; null: an empty log. */
  until?: Position | null;
  /** Write into this schema's copies of the tables and checkpoints (shadow replay); default the live ones. */
  schema?: string;
  onProgress?: (events: number) => void;
  /**
   * The share of its time a write slot spends writing: after each page's write it rests
   * `(1 - duty) / duty` times as long as the write took. A rebuild beside a serving app leaves
   * the rest to the app's own statements (`shadowReplay`). Default 1: no rest.
   */
  duty?: number;
}

/** Read models written concurrently for one page of the log. */
const APPLY_CONCURRENCY = 3;

/**
 * In a pass, a read model with nothing in a page moves on in memory, without a transaction,
 * and writes its checkpoint with its next page that has something, at the end of the pass,
 * or after this many log events (so that a pass stopped midway resumes near where it was).
 * The benchmark's seeded log (wallet events only) has nothing for most of the 12 read models:
 * they wrote an empty transaction for every page (docs/performance.md).
 */
const REPLAY_SKIP_LIMIT = 100_000;

/**
 * Gathers the statistics of the read models' tables in `schema` after a rebuild: the planner
 * would otherwise plan the first reads on those of the emptied tables until autovacuum came round.
 */
export async function analyzeTables(db: Kysely<DB>, projections: Projection[], schema = 'public'): Promise<void> {
  for (const p of projections) {
    for (const t of p.tables) await sql`analyze ${sql.table(`${schema}.${t}`)}`.execute(db);
  }
}

/**
 * The fill factor of the read models' tables that declare one (`Projection.fillFactors`):
 * 100 while a rebuild writes them (`packed`), so that their pages are full, and their live
 * value once it is done. A change of the tables' storage parameter, not of their rows.
 */
export async function setFillFactors(db: Kysely<DB>, projections: Projection[], schema: string, packed: boolean): Promise<void> {
  for (const p of projections) {
    for (const [t, live] of Object.entries(p.fillFactors ?? {})) {
      await sql`alter table ${sql.table(`${schema}.${t}`)} set (fillfactor = ${sql.lit(packed ? 100 : live)})`.execute(db);
    }
  }
}

/** Empties the read models' tables and checkpoints, in one transaction. */
export async function resetReadModels(db: Kysely<DB>, projections: Projection[], schema = 'public'): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const p of projections) {
      for (const t of p.tables) await sql`truncate table ${sql.table(`${schema}.${t}`)}`.execute(trx);
    }
    await trx
      .withSchema(schema)
      .deleteFrom('projection_checkpoints')
      .where(
        'name',
        'in',
        projections.map((p) => p.name),
      )
      .execute();
  });
}

/**
 * Brings several read models up to `until` reading the log once: each page is read one
 * time and handed to every projection, each in its own transaction with its own checkpoint,
 * as the live runners do. The read models do not wait for each other at every page: each
 * goes through the pages at its own pace, the reader stays up to PAGES_AHEAD pages ahead of
 * the slowest, and at most APPLY_CONCURRENCY transactions are open at a time. A pass that
 * feeds one read model with a planner (`Projection.planner`) computes the next page while the
 * current one is written. A read model whose checkpoint someone else moved (the live app
 * projecting at the same time) leaves the shared pass, and its planner, and finishes on its own.
 */
export async function catchUpTogether(
  db: Kysely<DB>,
  store: EventStore,
  projections: Projection[],
  opts: ReplayOptions = {},
): Promise<{ events: number; until: Position | null }> {
  const batchSize = opts.batchSize ?? 5000;
  const runners = projections.map(
    (p) => new ProjectionRunner(db, store, p, { batchSize, schema: opts.schema, skipLimit: REPLAY_SKIP_LIMIT }),
  );
  for (const r of runners) r.resetTo(await r.loadCheckpoint());
  const until = opts.until === undefined ? await store.committedHead() : opts.until;
  if (!until || runners.length === 0) return { events: 0, until };

  // The shared pass starts at the lowest checkpoint; a runner ahead of a page skips it.
  const start = runners.reduce((min, r) => (comparePositions(r.position, min) < 0 ? r.position : min), runners[0]!.position);
  const active = runners.filter((r) => comparePositions(r.position, until) < 0);
  if (active.length === 0 || comparePositions(start, until) >= 0) return { events: 0, until };

  const pages = new PageFeed(store, start, until, batchSize);
  const slots = new Slots(APPLY_CONCURRENCY, opts.duty);
  /** Pages each active runner has passed; the feed drops a page every runner has passed. */
  const passed = active.map(() => 0);
  const stragglers: ProjectionRunner[] = [];
  let reported = 0;
  const report = () => {
    const slowest = Math.min(...passed);
    pages.release(slowest);
    const events = pages.eventsBefore(slowest);
    if (events > reported) opts.onProgress?.((reported = events));
  };
  // The first failure stops the pass: no read model starts another page after it, and the
  // pass returns (with that error) once the pages being written are done.
  let failure = null as { error: unknown } | null;
  await Promise.allSettled(
    active.map(async (r, i) => {
      /** The write of the page this runner is on, while it runs. */
      let writing: Promise<boolean> = Promise.resolve(false);
      try {
        // Planned ahead only when the pass feeds one read model: with several, Node is busy with
        // the others while a page is written, and the planner's memory (the journal's open
        // transactions) made replay all slower (docs/performance.md, "Findings the code keeps";
        // round 15 in that file's git history).
        const plan = active.length === 1 ? await r.projection.planner?.(db, opts.schema ?? 'public') : undefined;
        /** Where this runner will be once the pages before the one being planned are written. */
        let at = r.position;
        /** A page's events for this runner and, with a planner, their writes (computed now); null when it has none. */
        const prepare = (page: RecordedEvent[]) => {
          const last = page[page.length - 1]!.position;
          if (comparePositions(at, last) >= 0) return null;
          const own = comparePositions(at, page[0]!.position) < 0 ? page : page.filter((e) => comparePositions(e.position, at) > 0);
          at = last;
          if (!plan) return { own, planned: undefined };
          const relevant = own.filter((e) => r.projection.handles(e.type));
          assertValidEvents(relevant);
          return { own, planned: relevant.length > 0 ? plan(relevant) : undefined };
        };
        /** Page `n` (null past the end) and what `prepare` makes of it. */
        const take = async (n: number) => {
          const page = await pages.at(n);
          return { page, next: page && prepare(page) };
        };
        let { page, next } = await take(passed[i]!);
        while (page) {
          const current = next;
          writing = current
            ? slots.run(() =>
                failure ? Promise.reject(STOPPED) : r.applyBatch(current.own, { planned: current.planned, skipIrrelevant: true }),
              )
            : Promise.resolve(false);
          // Awaited below; a rejection meanwhile is not unhandled.
          writing.catch(() => {});
          // With a planner, the next page is read and computed while this one is written.
          if (plan) ({ page, next } = await take(passed[i]! + 1));
          if (await writing) {
            stragglers.push(r);
            break;
          }
          passed[i]!++;
          report();
          if (!plan) ({ page, next } = await take(passed[i]!));
        }
        // Pages skipped at the end (nothing of this read model's) leave the checkpoint behind.
        if (!stragglers.includes(r) && (await slots.run(() => r.persist()))) stragglers.push(r);
        passed[i] = Infinity;
        report();
      } catch (error) {
        if (error !== STOPPED) failure ??= { error };
        pages.stop();
        // The pass ends once no transaction of it is open.
        await writing.catch(() => {});
        throw error;
      }
    }),
  );
  pages.stop();
  // Every rejection sets `failure` first (STOPPED comes only after one).
  if (failure) throw failure.error;
  for (const r of stragglers) await r.catchUp({ until });
  return { events: pages.eventsRead, until };
}

/** What a read model waiting for a page or a turn gets once another one has failed. */
const STOPPED = new Error('the replay stopped after an error');

/**
 * Pages kept in memory beyond the slowest read model's: the reader's lead. At least 2: a read
 * model with a planner asks for the next page while it still writes the one before.
 */
const PAGES_AHEAD = 2;

/**
 * The log from `after` up to `until`, read once in pages, one read at a time, up to
 * PAGES_AHEAD pages ahead of the oldest page still wanted; a page every reader has
 * passed is dropped.
 */
class PageFeed {
  private readonly pages = new Map<number, RecordedEvent[]>();
  /** Events in the pages before page i: `counts[i]`. */
  private readonly counts: number[] = [0];
  private read = 0;
  private released = 0;
  private done = false;
  private stopped = false;
  private after: Position;
  private reading: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly store: EventStore,
    after: Position,
    private readonly until: Position,
    private readonly batchSize: number,
  ) {
    this.after = after;
  }

  get eventsRead(): number {
    return this.counts[this.read]!;
  }

  eventsBefore(page: number): number {
    return this.counts[Math.min(page, this.read)]!;
  }

  /** Page `i`, once read; null past the end. */
  async at(i: number): Promise<RecordedEvent[] | null> {
    for (;;) {
      if (this.stopped) throw STOPPED;
      const page = this.pages.get(i);
      if (page) return page;
      if (i < this.read) throw new Error(`page ${i} of the replay was dropped while still wanted`);
      if (this.done) return null;
      this.reading ??= this.readNext().finally(() => (this.reading = null));
      await this.reading;
    }
  }

  /** Every reader has passed the pages before `page`. */
  release(page: number): void {
    for (let i = this.released; i < Math.min(page, this.read); i++) this.pages.delete(i);
    this.released = Math.max(this.released, Math.min(page, this.read));
    if (this.wake && this.read - this.released < PAGES_AHEAD) {
      const wake = this.wake;
      this.wake = null;
      wake();
    }
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async readNext(): Promise<void> {
    // Stay within PAGES_AHEAD of the slowest reader.
    while (this.read - this.released >= PAGES_AHEAD && !this.stopped) await new Promise<void>((r) => (this.wake = r));
    if (this.stopped) throw STOPPED;
    const page = await readUntil(this.store, this.after, this.until, this.batchSize, () => this.stopped);
    this.after = page[page.length - 1]!.position;
    this.pages.set(this.read, page);
    this.counts.push(this.counts[this.read]! + page.length);
    this.read++;
    if (comparePositions(this.after, this.until) >= 0) this.done = true;
  }
}

/** At most `size` tasks at a time, the others waiting in the order they asked. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  /** `duty`: see ReplayOptions.duty; a slot rests after each task for its share of the time. */
  constructor(
    size: number,
    private readonly duty = 1,
  ) {
    if (!(duty > 0 && duty <= 1)) throw new Error(`duty must be in (0, 1], not ${duty}`);
    this.free = size;
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    const started = performance.now();
    try {
      return await task();
    } finally {
      if (this.duty < 1) await sleep(((performance.now() - started) * (1 - this.duty)) / this.duty);
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/**
 * Rebuilds read models from the log in one pass: empties their tables and checkpoints in
 * one transaction, then applies the whole log in large batches, reading it once for all.
 * Every result carries the same numbers (the log's events and the pass's time).
 */
export async function replayProjections(
  db: Kysely<DB>,
  store: EventStore,
  projections: Projection[],
  opts: ReplayOptions = {},
): Promise<ReplayResult[]> {
  await resetReadModels(db, projections, opts.schema);
  const until = opts.until === undefined ? await store.committedHead() : opts.until;
  const t0 = performance.now();
  await setFillFactors(db, projections, opts.schema ?? 'public', true);
  let events: number;
  try {
    ({ events } = await catchUpTogether(db, store, projections, { ...opts, until }));
  } finally {
    await setFillFactors(db, projections, opts.schema ?? 'public', false);
  }
  const seconds = (performance.now() - t0) / 1000;
  const eventsPerSecond = seconds > 0 ? Math.round(events / seconds) : events;
  await analyzeTables(db, projections, opts.schema);
  return projections.map((p) => ({ name: p.name, events, seconds, eventsPerSecond }));
}

/** Rebuilds one read model from the log (see `replayProjections`). */
export async function replayProjection(
  db: Kysely<DB>,
  store: EventStore,
  projection: Projection,
  opts: ReplayOptions = {},
): Promise<ReplayResult> {
  const [result] = await replayProjections(db, store, [projection], opts);
  return result!;
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import {
  comparePositions,
  START,
  type EventStore,
  type Position,
  type RecordedEvent,
  type Subscription,
} from '../ledger/event-store/port.js';
import { assertValidEvents } from '../ledger/event-schemas.js';
import type { PlannedWrite, Projection } from './projection.js';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RunnerOptions {
  batchSize?: number;
  /** Scratch schema for verify and shadow replay; default the live tables. */
  schema?: string;
  /** Checkpoint row name; default the projection's name (a scratch run uses its own). */
  checkpointName?: string;
  /** With `skipIrrelevant`: the checkpoint is written at least every this many log events (default SKIP_LIMIT). */
  skipLimit?: number;
  /** Test hook: called inside the transaction after the rows are written, before the commit. */
  beforeCheckpoint?: (events: number) => Promise<void> | void;
}

/** Rolls back a shared batch when a checkpoint was not where its runner left it. */
class CheckpointMoved extends Error {}

/** How long catch-up waits for the read horizon to pass its target before giving up. */
const HORIZON_WAIT_MS = 60_000;

/**
 * The next page of the log after `after`, cut at `until` (which lies beyond `after`), never
 * empty. Events up to `until` exist but may not be readable yet: a transaction older than
 * them (anywhere in the cluster) still holds the read horizon back. It waits for that, up to
 * HORIZON_WAIT_MS, and gives up early when `stopped` says so.
 */
export async function readUntil(
  store: EventStore,
  after: Position,
  until: Position,
  maxCount: number,
  stopped: () => boolean = () => false,
): Promise<RecordedEvent[]> {
  const since = Date.now();
  for (;;) {
    const page = (await store.readAll({ after, maxCount })).filter((e) => comparePositions(e.position, until) <= 0);
    if (page.length > 0) return page;
    if (Date.now() - since > HORIZON_WAIT_MS) {
      throw new Error(
        `the log has not been readable past ${until.commit}/${until.prepare} for ${HORIZON_WAIT_MS / 1000} s: a long-running transaction holds it back`,
      );
    }
    await sleep(20);
    if (stopped()) throw new Error('the replay stopped');
  }
}
/** The live loop writes the checkpoint at least every this many log events (`RunnerOptions.skipLimit`). */
const SKIP_LIMIT = 1000;

/**
 * Feeds one projection from the log. Each batch is one transaction: move the checkpoint
 * (locking its row, and only if it is where this runner left it), write the rows. A crash
 * anywhere rolls back both, so an event is never applied twice nor lost; another process
 * (an operator's replay) that moved the checkpoint is noticed under the lock and followed.
 */
export class ProjectionRunner {
  position: Position = START;
  eventsApplied = 0;
  /** Where the stored checkpoint is as far as this runner knows (behind `position` after skipped batches). */
  private persisted: Position = START;
  /** Log events passed since the checkpoint was last written, none of them this projection's. */
  private unpersisted = 0;
  private readonly checkpointName: string;
  private readonly schema: string;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: EventStore,
    readonly projection: Projection,
    private readonly options: RunnerOptions = {},
  ) {
    this.checkpointName = options.checkpointName ?? projection.name;
    this.schema = options.schema ?? 'public';
  }

  async loadCheckpoint(): Promise<Position> {
    await sql`insert into ${sql.table(`${this.schema}.projection_checkpoints`)} (name) values (${this.checkpointName})
      on conflict (name) do nothing`.execute(this.db);
    const row = await this.db
      .withSchema(this.schema)
      .selectFrom('projection_checkpoints')
      .select(['commit_position', 'prepare_position'])
      .where('name', '=', this.checkpointName)
      .executeTakeFirstOrThrow();
    return { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) };
  }

  /** Continues from the stored checkpoint `at`. */
  resetTo(at: Position): void {
    this.position = at;
    this.persisted = at;
    this.unpersisted = 0;
  }

  /**
   * Applies one page of the log (in order, starting right after this runner's position)
   * in one transaction with the checkpoint. Returns true when the stored checkpoint was
   * not where this runner thought it was (nothing applied; the runner follows it).
   *
   * With `skipIrrelevant` (the live loop), a batch with none of this projection's events
   * only moves the position in memory, without a transaction; the checkpoint is written
   * with the next batch that has some, or after `skipLimit` events. A crash in between
   * re-reads those events and again finds nothing to do.
   */
  async applyBatch(
    events: Awaited<ReturnType<Subscription['nextBatch']>>,
    opts: { skipIrrelevant?: boolean; planned?: PlannedWrite } = {},
  ): Promise<boolean> {
    return ProjectionRunner.applyTogether(this.db, [this], events, { ...opts, planned: opts.planned && new Map([[this, opts.planned]]) });
  }

  /**
   * Applies one page of the log to several read models in ONE transaction: their
   * checkpoints move together in one statement (each only from where its runner left it)
   * and every read model with events in the page writes its rows; a crash rolls back all
   * of them. The live projector uses this, so that a command waits for one transaction,
   * not one per read model. A runner ahead of part of the page gets only what follows its
   * position; one with nothing of its own in the page moves in memory (as `applyBatch`
   * with `skipIrrelevant`). Returns true when some stored checkpoint was not where its
   * runner thought (nothing applied; every runner involved follows its stored checkpoint).
   * A runner in `planned` writes what its planner computed from the same events instead of
   * calling `apply`.
   */
  static async applyTogether(
    db: Kysely<DB>,
    runners: ProjectionRunner[],
    events: Awaited<ReturnType<Subscription['nextBatch']>>,
    opts: { skipIrrelevant?: boolean; planned?: Map<ProjectionRunner, PlannedWrite> } = {},
  ): Promise<boolean> {
    const last = events[events.length - 1]!.position;
    const writes: { runner: ProjectionRunner; relevant: typeof events }[] = [];
    for (const r of runners) {
      if (comparePositions(r.position, last) >= 0) continue;
      const own =
        comparePositions(r.position, events[0]!.position) < 0 ? events : events.filter((e) => comparePositions(e.position, r.position) > 0);
      const relevant = own.filter((e) => r.projection.handles(e.type));
      // An event that does not match its schema stops the page before anything is written, named.
      assertValidEvents(relevant);
      if (opts.skipIrrelevant && relevant.length === 0 && r.unpersisted + own.length < (r.options.skipLimit ?? SKIP_LIMIT)) {
        r.unpersisted += own.length;
        r.position = last;
      } else {
        writes.push({ runner: r, relevant });
      }
    }
    return writes.length > 0 ? ProjectionRunner.write(db, writes, last, opts.planned) : false;
  }

  /**
   * Writes the checkpoint at this runner's position when batches skipped with
   * `skipIrrelevant` left it behind (a pass over the log ends this way). Returns true when
   * the stored checkpoint was not where this runner left it (as `applyBatch`).
   */
  async persist(): Promise<boolean> {
    if (comparePositions(this.position, this.persisted) <= 0) return false;
    return ProjectionRunner.write(this.db, [{ runner: this, relevant: [] }], this.position);
  }

  /** One transaction: the runners' checkpoints move to `last` (each only from where it left it) and their rows are written. */
  private static async write(
    db: Kysely<DB>,
    writes: { runner: ProjectionRunner; relevant: RecordedEvent[] }[],
    last: Position,
    planned?: Map<ProjectionRunner, PlannedWrite>,
  ): Promise<boolean> {
    const schema = writes[0]!.runner.schema;
    const moved = await db
      .transaction()
      .execute(async (trx) => {
        const claims = writes.map(
          ({ runner, relevant }) =>
            sql`(${runner.checkpointName}::text, ${runner.persisted.commit.toString()}::bigint, ${runner.persisted.prepare.toString()}::bigint, ${relevant.length}::bigint)`,
        );
        const { rows } = await sql<{ name: string }>`
        update ${sql.table(`${schema}.projection_checkpoints`)} as c
        set commit_position = ${last.commit.toString()}, prepare_position = ${last.prepare.toString()},
            events_applied = c.events_applied + w.applied, updated_at = now()
        from (values ${sql.join(claims)}) as w (name, commit_position, prepare_position, applied)
        where c.name = w.name and c.commit_position = w.commit_position and c.prepare_position = w.prepare_position
        returning c.name`.execute(trx);
        // Someone else (an operator's replay) moved a checkpoint: roll back, apply nothing.
        if (rows.length !== writes.length) throw new CheckpointMoved();
        for (const { runner, relevant } of writes) {
          if (relevant.length === 0) continue;
          // A runner's write planned from the same events (a replay's planner) or its `apply`.
          const plannedWrite = planned?.get(runner);
          await (plannedWrite ? plannedWrite({ trx, schema }) : runner.projection.apply({ trx, schema }, relevant));
        }
        for (const { runner, relevant } of writes) await runner.options.beforeCheckpoint?.(relevant.length);
        return false;
      })
      .catch((err: unknown) => {
        if (err instanceof CheckpointMoved) return true;
        throw err;
      });
    if (moved) {
      for (const { runner } of writes) runner.resetTo(await runner.loadCheckpoint());
    } else {
      for (const { runner, relevant } of writes) {
        runner.resetTo(last);
        runner.eventsApplied += relevant.length;
      }
    }
    return moved;
  }

  /**
   * Applies everything up to the head of the log (or `until`), then returns. Used by
   * replay and verify; does not need `start()`.
   */
  async catchUp(opts: { until?: Position | null; onBatch?: (applied: number, at: Position) => void } = {}): Promise<number> {
    this.resetTo(await this.loadCheckpoint());
    const until = opts.until === undefined ? await this.store.committedHead() : opts.until;
    const batchSize = this.options.batchSize ?? 2000;
    let total = 0;
    while (until && comparePositions(this.position, until) < 0) {
      const events = await readUntil(this.store, this.position, until, batchSize);
      // Moved by another process (the live app projecting too): carry on from there.
      if (await this.applyBatch(events)) continue;
      total += events.length;
      opts.onBatch?.(total, this.position);
    }
    return total;
  }
}

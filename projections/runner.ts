import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import { comparePositions, START, type EventStore, type Position, type Subscription } from '../ledger/event-store/port.js';
import type { Projection } from './projection.js';

export interface RunnerOptions {
  batchSize?: number;
  /** Scratch schema for verify and shadow replay; default the live tables. */
  schema?: string;
  /** Checkpoint row name; default the projection's name (a scratch run uses its own). */
  checkpointName?: string;
  /** Test hook: called inside the transaction after the rows are written, before the commit. */
  beforeCheckpoint?: (events: number) => Promise<void> | void;
  onError?: (err: unknown) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long catch-up waits for the read horizon to pass its target before giving up. */
const HORIZON_WAIT_MS = 60_000;
/** The live loop writes the checkpoint at least every this many log events. */
const SKIP_LIMIT = 1000;

/**
 * Feeds one projection from the log. Each batch is one transaction: move the checkpoint
 * (locking its row, and only if it is where this runner left it), write the rows. A crash
 * anywhere rolls back both, so an event is never applied twice nor lost; another process
 * (an operator's replay) that moved the checkpoint is noticed under the lock and followed.
 */
export class ProjectionRunner extends EventEmitter {
  position: Position = START;
  eventsApplied = 0;
  /** Where the stored checkpoint is as far as this runner knows (behind `position` after skipped batches). */
  private persisted: Position = START;
  /** Log events passed since the checkpoint was last written, none of them this projection's. */
  private unpersisted = 0;
  private subscription: Subscription | null = null;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly checkpointName: string;
  private readonly schema: string;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: EventStore,
    readonly projection: Projection,
    private readonly options: RunnerOptions = {},
  ) {
    super();
    // Every command waiting for read-your-writes listens for progress.
    this.setMaxListeners(0);
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

  /** Starts following the log from the stored checkpoint. */
  async start(): Promise<void> {
    this.resetTo(await this.loadCheckpoint());
    this.stopped = false;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    while (!this.stopped) {
      try {
        this.subscription ??= this.store.subscribeAll({ after: this.position });
        const events = await this.subscription.nextBatch(batchSize);
        if (this.stopped || events.length === 0) continue;
        const moved = await this.applyBatch(events, { skipIrrelevant: true });
        if (moved) {
          // Someone else moved the checkpoint: continue from where they left it.
          await this.subscription.close();
          this.subscription = null;
        }
      } catch (err) {
        this.options.onError?.(err);
        this.emit('error-in-batch', err);
        await this.subscription?.close();
        this.subscription = null;
        this.resetTo(await this.loadCheckpoint().catch(() => this.persisted));
        await sleep(500);
      }
    }
  }

  /**
   * Applies one page of the log (in order, starting right after this runner's position)
   * in one transaction with the checkpoint. Returns true when the stored checkpoint was
   * not where this runner thought it was (nothing applied; the runner follows it).
   *
   * With `skipIrrelevant` (the live loop), a batch with none of this projection's events
   * only moves the position in memory, without a transaction; the checkpoint is written
   * with the next batch that has some, or after SKIP_LIMIT events. A crash in between
   * re-reads those events and again finds nothing to do.
   */
  async applyBatch(events: Awaited<ReturnType<Subscription['nextBatch']>>, opts: { skipIrrelevant?: boolean } = {}): Promise<boolean> {
    const last = events[events.length - 1]!.position;
    const relevant = events.filter((e) => this.projection.handles(e.type));
    if (opts.skipIrrelevant && relevant.length === 0 && this.unpersisted + events.length < SKIP_LIMIT) {
      this.unpersisted += events.length;
      this.position = last;
      this.emit('progress', this.position);
      return false;
    }
    const outcome = await this.db.transaction().execute(async (trx) => {
      // The checkpoint moves first, and only from where this runner left it: its row lock
      // makes another process wait, and no row back means someone else moved it (then
      // nothing is applied). One statement where a read and a write were two.
      const claimed = await trx
        .withSchema(this.schema)
        .updateTable('projection_checkpoints')
        .set({
          commit_position: last.commit.toString(),
          prepare_position: last.prepare.toString(),
          events_applied: sql`events_applied + ${relevant.length}`,
          updated_at: new Date(),
        })
        .where('name', '=', this.checkpointName)
        .where('commit_position', '=', this.persisted.commit.toString())
        .where('prepare_position', '=', this.persisted.prepare.toString())
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) {
        const cp = await trx
          .withSchema(this.schema)
          .selectFrom('projection_checkpoints')
          .select(['commit_position', 'prepare_position'])
          .where('name', '=', this.checkpointName)
          .executeTakeFirst();
        return { moved: cp ? { commit: BigInt(cp.commit_position), prepare: BigInt(cp.prepare_position) } : START };
      }
      if (relevant.length > 0) await this.projection.apply({ trx, schema: this.schema }, relevant);
      await this.options.beforeCheckpoint?.(relevant.length);
      return { moved: null };
    });
    if (outcome.moved) {
      this.resetTo(outcome.moved);
      // Another process applied these: a command waiting here for them may answer now.
      this.emit('progress', this.position);
      return true;
    }
    this.resetTo(last);
    this.eventsApplied += relevant.length;
    this.emit('progress', this.position);
    return false;
  }

  /**
   * Applies everything up to the head of the log (or `until`), then returns. Used by
   * replay and verify; does not need `start()`.
   */
  async catchUp(opts: { until?: Position | null; onBatch?: (applied: number, at: Position) => void } = {}): Promise<number> {
    this.resetTo(await this.loadCheckpoint());
    const until = opts.until === undefined ? await this.store.headPosition() : opts.until;
    const batchSize = this.options.batchSize ?? 2000;
    let total = 0;
    let heldSince: number | null = null;
    while (until && comparePositions(this.position, until) < 0) {
      const page = await this.store.readAll({ after: this.position, maxCount: batchSize });
      const events = page.filter((e) => comparePositions(e.position, until) <= 0);
      if (events.length === 0) {
        // Events up to `until` exist but are not readable yet: a transaction older than them
        // (anywhere in the cluster) is still open and holds the read horizon back. Wait for it.
        heldSince ??= Date.now();
        if (Date.now() - heldSince > HORIZON_WAIT_MS) {
          throw new Error(`the log has not been readable past ${until.commit}/${until.prepare} for ${HORIZON_WAIT_MS / 1000} s: a long-running transaction holds it back`);
        }
        await sleep(20);
        continue;
      }
      heldSince = null;
      // Moved by another process (the live app projecting too): carry on from there.
      if (await this.applyBatch(events)) continue;
      total += events.length;
      opts.onBatch?.(total, this.position);
    }
    return total;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close();
    await this.loop;
    this.subscription = null;
    this.loop = null;
  }

  /** Resolves once this runner has applied everything up to `position`. */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onProgress = () => {
        if (comparePositions(this.position, position) >= 0) finish(true);
      };
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        this.off('progress', onProgress);
        resolve(ok);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.on('progress', onProgress);
    });
  }
}

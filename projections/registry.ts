import type { Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import { EventEmitter } from 'node:events';
import { comparePositions, START, type EventStore, type Position, type Subscription } from '../ledger/event-store/port.js';
import { balancesProjection } from './balances.js';
import { transactionsProjection } from './transactions.js';
import { usersProjection } from './users.js';
import { notificationsProjection } from './notifications.js';
import { paymentMethodsProjection } from './payment-methods.js';
import { scheduledTransactionsProjection } from './scheduled-transactions.js';
import { journalProjection } from './journal.js';
import { buyingLinksProjection } from './buying-links.js';
import { announcementsProjection } from './announcements.js';
import { ticketsProjection } from './tickets.js';
import { staffActionsProjection } from './staff-actions.js';
import { approvalRequestsProjection } from './approval-requests.js';
import type { Projection } from './projection.js';
import { ProjectionRunner, type RunnerOptions } from './runner.js';
import { setTimeout as sleep } from 'node:timers/promises';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

/** Every read model, in the order they are replayed. */
export const PROJECTIONS: Projection[] = [
  balancesProjection,
  transactionsProjection,
  usersProjection,
  paymentMethodsProjection,
  notificationsProjection,
  scheduledTransactionsProjection,
  journalProjection,
  buyingLinksProjection,
  announcementsProjection,
  ticketsProjection,
  staffActionsProjection,
  approvalRequestsProjection,
];

export function findProjection(name: string): Projection | undefined {
  return PROJECTIONS.find((p) => p.name === name);
}

/**
 * The live read models of a process, fed by one loop: each page of the log is read once and
 * applied to every read model in one transaction (`ProjectionRunner.applyTogether`), so a
 * command's read-your-writes wait is one transaction, not one per read model. Each read
 * model keeps its own checkpoint, so an operator can rebuild one while the app runs.
 */
export class Projector extends EventEmitter {
  readonly runners: ProjectionRunner[];
  private subscription: Subscription | null = null;
  private stopped = true;
  private loop: Promise<void> | null = null;
  /** Ends the wait before a failed page is retried (`waitFor`: a command just committed, so the database answers again). */
  private retryWait: AbortController | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly store: EventStore,
    projections: Projection[] = PROJECTIONS,
    private readonly options: RunnerOptions = {},
  ) {
    super();
    // Every command waiting for read-your-writes listens for progress.
    this.setMaxListeners(0);
    this.runners = projections.map((p) => new ProjectionRunner(db, store, p, options));
  }

  /** Where every read model has got to: the lowest position of all. */
  get position(): Position {
    return this.runners.reduce((min, r) => (comparePositions(r.position, min) < 0 ? r.position : min), this.runners[0]?.position ?? START);
  }

  async start(): Promise<void> {
    for (const r of this.runners) r.resetTo(await r.loadCheckpoint());
    this.stopped = false;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    let delay = RETRY_FIRST_MS;
    while (!this.stopped) {
      try {
        this.subscription ??= this.store.subscribeAll({ after: this.position });
        const events = await this.subscription.nextBatch(batchSize);
        if (this.stopped || events.length === 0) continue;
        const moved = await ProjectionRunner.applyTogether(this.db, this.runners, events, { skipIrrelevant: true });
        delay = RETRY_FIRST_MS;
        this.emit('progress');
        if (moved) {
          // Someone else moved a checkpoint: continue from where they left it.
          await this.subscription.close();
          this.subscription = null;
        }
      } catch (err) {
        if (this.stopped) break;
        this.report(err, delay);
        await this.subscription?.close().catch(() => {});
        this.subscription = null;
        for (const r of this.runners) r.resetTo(await r.loadCheckpoint().catch(() => r.position));
        this.retryWait = new AbortController();
        await sleep(delay, undefined, { signal: this.retryWait.signal }).catch(() => {});
        this.retryWait = null;
        delay = Math.min(delay * 2, RETRY_MAX_MS);
      }
    }
  }

  /**
   * A failed page is retried from the stored checkpoints, sooner at first, then every
   * RETRY_MAX_MS while it keeps failing; each failure is reported (the app logs it as an
   * error: the read tables and every read-your-writes wait are stuck until it passes).
   */
  private report(err: unknown, retryInMs: number): void {
    if (this.listenerCount('failed') > 0) this.emit('failed', err, retryInMs);
    else console.error(`projections: a page failed, retrying in ${retryInMs} ms:`, err);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.retryWait?.abort();
    await this.subscription?.close();
    await this.loop;
    this.subscription = null;
    this.loop = null;
  }

  /**
   * True once every read model shows `position`; false if that took longer than `timeoutMs`.
   * A position to wait for is a commit that just succeeded: if the loop is waiting to retry a
   * failed page (the database was lost, as in a failover), it retries now rather than after
   * its backoff, so that the read tables, and the commands waiting on them, resume at once.
   */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.position, position) >= 0) return Promise.resolve(true);
    this.retryWait?.abort();
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

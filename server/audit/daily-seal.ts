import { schedule, type ScheduledTask } from 'node-cron';
import type { EventStore } from '../../ledger/event-store/port.js';
import { sealLog, UnchainedLogError, type SealResult } from '../../ledger/audit/log-seal.js';
import { SYSTEM_ACTOR } from '../../ledger/command-handler.js';

export interface DailySealOptions {
  /** node-cron expression (seconds field first); default 00:15 UTC every day. */
  cron?: string;
  now?: () => Date;
  log?: { info: (obj: unknown, msg?: string) => void; warn: (obj: unknown, msg?: string) => void };
}

/**
 * Seals the event log once a day (docs/finance.md, "A log no one can rewrite"): a seal event on
 * `ledger-seals` by the system actor, its id derived from the UTC date, so that several
 * instances write one seal a day (the others find it stored). The digest is logged; operators
 * keep it outside the database. A log with unchained events is not sealed (a warning says to
 * run `ledger seal --backfill`).
 */
export class DailySeal {
  private task: ScheduledTask | null = null;
  private running: Promise<SealResult | null> | null = null;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly options: DailySealOptions = {},
  ) {}

  start(): void {
    if (this.task || this.stopped) return;
    this.task = schedule(this.options.cron ?? '0 15 0 * * *', () => void this.run().catch(() => {}), {
      noOverlap: true,
      name: 'daily-seal',
      timezone: 'Etc/UTC',
    });
  }

  /** Seals for today's UTC date (once); answers the seal, or null when the log cannot be sealed yet. */
  run(): Promise<SealResult | null> {
    if (this.stopped) return Promise.resolve(null);
    this.running ??= this.seal().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async seal(): Promise<SealResult | null> {
    const day = (this.options.now?.() ?? new Date()).toISOString().slice(0, 10);
    try {
      const seal = await sealLog(this.store, SYSTEM_ACTOR, { daily: day });
      if (!seal.alreadySealed)
        this.options.log?.info(
          { digest: seal.digest, seal: seal.sealNumber, upTo: seal.upTo, streams: seal.streams, events: seal.events },
          `daily seal ${day}: digest ${seal.digest} (keep it outside the database)`,
        );
      return seal;
    } catch (err) {
      if (err instanceof UnchainedLogError)
        this.options.log?.warn({ unchained: err.unchained }, `daily seal ${day} not written: ${err.message}`);
      else this.options.log?.warn({ err }, `daily seal ${day} failed; it is tried again tomorrow or by \`ledger seal\``);
      if (err instanceof UnchainedLogError) return null;
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const task = this.task;
    this.task = null;
    if (task) {
      await task.stop();
      await task.destroy();
    }
    await this.running?.catch(() => {});
  }
}

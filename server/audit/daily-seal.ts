import type { EventStore } from '../../ledger/event-store/port.js';
import { sealLog, UnchainedLogError, type SealResult } from '../../ledger/audit/log-seal.js';
import { SYSTEM_ACTOR } from '../../ledger/command-handler.js';
import { ScheduledJob } from '../scheduled-job.js';

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
  private readonly job: ScheduledJob<SealResult | null>;

  constructor(
    private readonly store: EventStore,
    private readonly options: DailySealOptions = {},
  ) {
    // A tick's failure is logged by seal(); the next day, or `ledger seal`, tries again.
    this.job = new ScheduledJob(
      { name: 'daily-seal', cron: options.cron ?? '0 15 0 * * *', timezone: 'Etc/UTC' },
      () => this.seal(),
      null,
      (run) => run().catch(() => {}),
    );
  }

  start(): void {
    this.job.schedule();
  }

  /** Seals for today's UTC date (once); answers the seal, or null when the log cannot be sealed yet. */
  run(): Promise<SealResult | null> {
    return this.job.run();
  }

  stop(): Promise<void> {
    return this.job.stop();
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
}

import type { LedgerContext } from '../context.js';
import { deterministicUuid, SYSTEM_ACTOR } from '../../ledger/command-handler.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { WalletError } from '../../ledger/wallet/wallet.js';
import { ScheduledJob } from '../scheduled-job.js';

export interface PayoutSchedulerOptions {
  /** The clock; tests pass one they control. */
  now?: () => Date;
  /** How often due payouts are looked for (node-cron, seconds field first). Default every 30 s. */
  cron?: string;
  log?: { info: (obj: unknown, msg?: string) => void; warn: (obj: unknown, msg?: string) => void };
}

/** The payout's transaction id follows from the stake's, so every run names the same payout. */
export const payoutTransactionId = (stakeId: string) => deterministicUuid('stake-payout', stakeId);

/**
 * Pays matured stakes: principal plus earnings back to the wallet as one Complete transaction.
 *
 * The schedule is the scheduled_transactions read model, which is projected from the log:
 * on start the scheduler waits for the read models to reach the head of the log and pays
 * what fell due while the app was down; then node-cron looks again every tick. A payout is
 * a command on the customer's wallet whose decider records it at most once, so two runs,
 * two processes or a restart mid-run never pay a stake twice.
 */
export class PayoutScheduler {
  private readonly job: ScheduledJob<number>;
  private readonly now: () => Date;
  private started = false;

  constructor(
    private readonly ledger: LedgerContext,
    private readonly options: PayoutSchedulerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    // A scheduled run: a failure is logged and the next tick tries again. A run the app's close
    // overtook (its database already shut) is no failure and is not reported.
    this.job = new ScheduledJob(
      { name: 'stake-payouts', cron: options.cron ?? '*/30 * * * * *' },
      () => this.payDue(),
      0,
      (run) =>
        run().catch((err: unknown) => {
          if (!this.job.isStopped) this.options.log?.warn({ err }, 'stake payouts: a run failed; the next tick tries again');
        }),
    );
  }

  /**
   * Pays what fell due while the app was down, then schedules the ticks. A first run that fails
   * (the event store not answering yet) does not stop the app from starting: it is logged, and
   * the ticks pay what is due once the store and the read models are back.
   */
  async start(): Promise<void> {
    if (this.started || this.job.isStopped) return;
    this.started = true;
    try {
      const head = await this.ledger.store.committedHead();
      if (head) await this.ledger.projector.waitFor(head, this.ledger.config.PROJECTION_WAIT_MS);
      await this.runDue();
    } catch (err) {
      if (!this.job.isStopped) this.options.log?.warn({ err }, 'stake payouts: the first run failed; the next tick tries again');
    }
    this.job.schedule();
  }

  /** Pays every stake due at the clock's now; answers how many it paid. Runs never overlap. */
  runDue(): Promise<number> {
    return this.job.run();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  private async payDue(): Promise<number> {
    const now = this.now();
    const due = await this.ledger.database.db
      .selectFrom('scheduled_transactions')
      .select(['id', 'user_id'])
      .where('status', '=', 'pending')
      .where('type', '=', 'stake_payout')
      .where('scheduled_at', '<=', now)
      .orderBy('scheduled_at')
      .limit(500)
      .execute();
    let paid = 0;
    for (const stake of due) {
      if (this.job.isStopped) break;
      try {
        const result = await this.ledger.execute(
          walletDecider,
          stake.user_id,
          { type: 'PayOutStake', stakeId: stake.id, transactionId: payoutTransactionId(stake.id), now: now.toISOString() },
          { actor: SYSTEM_ACTOR, idempotencyKey: `stake-payout:${stake.id}`, extra: { reason: 'stake matured' } },
        );
        if (result.events.length > 0 && !result.replayed) paid++;
      } catch (err) {
        // One stake that cannot be paid must not hold up the others; it is tried again next tick.
        if (err instanceof WalletError) this.options.log?.warn({ err, stakeId: stake.id }, 'stake payout refused');
        else this.options.log?.warn({ err, stakeId: stake.id }, 'stake payout failed');
      }
    }
    if (paid > 0) this.options.log?.info({ paid }, 'stake payouts recorded');
    return paid;
  }
}

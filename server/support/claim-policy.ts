import type { Subscription } from '../../ledger/event-store/port.js';
import { SYSTEM_ACTOR } from '../../ledger/command-handler.js';
import { USER_STREAM_PREFIX } from '../../ledger/user/events.js';
import type { LedgerContext } from '../context.js';
import type { SupportTickets } from './tickets.js';

/**
 * Queued tickets follow a later claim: when a worker claims a customer, that customer's
 * unassigned tickets are assigned to the worker. On start it sweeps what a stopped process
 * may have missed; the Assign command leaves a ticket alone once anyone has it.
 */
export class TicketClaimPolicy {
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly ledger: LedgerContext,
    private readonly tickets: SupportTickets,
  ) {}

  async start(): Promise<void> {
    const head = await this.ledger.store.headPosition();
    this.subscription = this.ledger.store.subscribeAll({ after: head ?? undefined });
    await this.sweep();
    this.loop = this.run();
  }

  /** Assigns queued tickets of claimed customers (all of them, or of these customers). */
  async sweep(customerIds?: string[]): Promise<void> {
    if (customerIds?.length === 0) return;
    let query = this.ledger.database.db
      .selectFrom('support_tickets as t')
      .innerJoin('user_profiles as p', 'p.user_id', 't.user_id')
      .select(['t.id', 'p.assigned_worker_id as workerId'])
      .where('t.assigned_worker_id', 'is', null)
      .where('p.assigned_worker_id', 'is not', null);
    if (customerIds) query = query.where('t.user_id', 'in', customerIds);
    for (const row of await query.execute()) {
      await this.tickets.run(row.id, { type: 'Assign', workerId: row.workerId!, queuedOnly: true }, { userId: SYSTEM_ACTOR.id, role: 'SYSTEM' });
    }
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.subscription) {
      try {
        const batch = await this.subscription.nextBatch(500);
        const claimed = batch.filter((e) => e.type === 'user.claimed').map((e) => e.streamId.slice(USER_STREAM_PREFIX.length));
        if (claimed.length === 0) continue;
        await this.ledger.projector.waitFor(batch[batch.length - 1]!.position, this.ledger.config.PROJECTION_WAIT_MS);
        await this.sweep([...new Set(claimed)]);
      } catch {
        if (this.stopped) return;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close();
    await this.loop;
  }
}

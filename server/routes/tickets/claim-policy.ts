import { SYSTEM_ACTOR } from '../../../ledger/command-handler.js';
import { USER_STREAM_PREFIX } from '../../../ledger/user/events.js';
import type { LedgerContext } from '../../context.js';
import { streamIds, type LiveFeed } from '../../realtime/live-feed.js';
import { queuedTicketsOfClaimedCustomers } from './queries.js';
import type { SupportTickets } from './tickets.js';

/**
 * Queued tickets follow a later claim: when a worker claims a customer, that customer's
 * unassigned tickets are assigned to the worker. On start it sweeps what a stopped process
 * may have missed; the Assign command leaves a ticket alone once anyone has it.
 */
export class TicketClaimPolicy {
  private unregister: (() => Promise<void>) | null = null;

  constructor(
    private readonly ledger: LedgerContext,
    private readonly tickets: SupportTickets,
    private readonly feed: LiveFeed,
  ) {}

  /** Follows claims from now on, then sweeps, so that no claim falls between the two. */
  async start(): Promise<void> {
    this.unregister = this.feed.register({
      wants: (e) => e.type === 'user.claimed',
      handle: (events) => this.sweep([...streamIds(events, USER_STREAM_PREFIX)]),
    });
    await this.sweep();
  }

  /** Assigns queued tickets of claimed customers (all of them, or of these customers). */
  async sweep(customerIds?: string[]): Promise<void> {
    if (customerIds?.length === 0) return;
    for (const row of await queuedTicketsOfClaimedCustomers(this.ledger.database.db, customerIds)) {
      await this.tickets.run(
        row.id,
        { type: 'Assign', workerId: row.workerId!, queuedOnly: true },
        { userId: SYSTEM_ACTOR.id, role: 'SYSTEM' },
      );
    }
  }

  async stop(): Promise<void> {
    await this.unregister?.();
    this.unregister = null;
  }
}

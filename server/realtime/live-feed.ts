import type { EventStore, Position, Subscription } from '../../ledger/event-store/port.js';
import { WALLET_STREAM_PREFIX } from '../../ledger/wallet/events.js';
import type { Projector } from '../../projections/registry.js';
import type { RealtimeHub } from './hub.js';

/**
 * Follows the log from where it is now and tells each customer's open sockets that their
 * transactions changed, once the read tables show it (so a refetch sees the new rows).
 */
export class LiveFeed {
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly projector: Projector,
    private readonly hub: RealtimeHub,
    private readonly waitMs: number,
  ) {}

  async start(): Promise<void> {
    const head = await this.store.headPosition();
    this.subscription = this.store.subscribeAll({ after: head ?? undefined });
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.subscription) {
      try {
        const batch = await this.subscription.nextBatch(500);
        if (batch.length === 0) continue;
        const users = new Set<string>();
        const readers = new Set<string>();
        for (const e of batch) {
          if (e.streamId.startsWith(WALLET_STREAM_PREFIX)) users.add(e.streamId.slice(WALLET_STREAM_PREFIX.length));
          else if (e.streamId.startsWith('notifications-')) readers.add(e.streamId.slice('notifications-'.length));
        }
        if (users.size === 0 && readers.size === 0) continue;
        const last: Position = batch[batch.length - 1]!.position;
        await this.projector.waitFor(last, this.waitMs);
        for (const userId of users) {
          this.hub.publish(userId, 'transactions', { changed: true });
          this.hub.publish(userId, 'notifications', { changed: true });
        }
        for (const userId of readers) if (!users.has(userId)) this.hub.publish(userId, 'notifications', { changed: true });
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

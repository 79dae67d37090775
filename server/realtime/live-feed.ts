import type { EventStore, Position, RecordedEvent, Subscription } from '../../ledger/event-store/port.js';
import type { Projector } from '../../projections/registry.js';

/** One follower of the log: the events it cares about, and what it does once they are readable. */
export interface FeedHandler {
  /** Whether this event is of the kind the handler follows (a stream prefix, an event type). */
  wants(event: RecordedEvent): boolean;
  /** Runs once the read tables show the batch, with the batch's wanted events in log order. */
  handle(events: RecordedEvent[]): Promise<void> | void;
}

/**
 * The one loop that follows the log from where it is now, waits until the read tables show a
 * batch, and hands each handler the events it wants (so a refetch, or a query, sees the new rows).
 * A batch nobody wants is not waited for. Each handler works through its batches in order on
 * its own, so a slow one (a ticket sweep) never holds back another's realtime hints.
 * A subscription that fails (the event store restarted, a connection dropped) is closed and
 * opened again after the last event handed on, sooner at first, then every RESUBSCRIBE_MAX_MS.
 */
export const RESUBSCRIBE_FIRST_MS = 100;
export const RESUBSCRIBE_MAX_MS = 10_000;

export class LiveFeed {
  private readonly handlers = new Map<FeedHandler, Promise<void>>();
  private subscription: Subscription | null = null;
  /** The last event handed on (or the head at start): a new subscription follows it. */
  private after: Position | undefined;
  /** Whether `after` holds the head the feed started from (false while the store has not answered). */
  private located = false;
  private loop: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: EventStore,
    private readonly projector: Projector,
    private readonly waitMs: number,
  ) {}

  /** Adds a handler; from the next batch on it gets what it wants. Answers its removal. */
  register(handler: FeedHandler): () => Promise<void> {
    this.handlers.set(handler, Promise.resolve());
    return async () => {
      const tail = this.handlers.get(handler);
      this.handlers.delete(handler);
      await tail;
    };
  }

  /**
   * Follows the log from its head now. A store that does not answer yet (EventStoreDB still
   * down when the app starts) holds nothing up: the loop asks for the head again, with the
   * same backoff as a failed subscription, and follows from there.
   */
  async start(): Promise<void> {
    this.located = await this.store.headPosition().then(
      (head) => {
        this.after = head ?? undefined;
        return true;
      },
      () => false,
    );
    if (this.located) this.subscription = this.store.subscribeAll({ after: this.after });
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    let delay = RESUBSCRIBE_FIRST_MS;
    while (!this.stopped) {
      try {
        if (!this.located) {
          this.after = (await this.store.headPosition()) ?? undefined;
          this.located = true;
        }
        this.subscription ??= this.store.subscribeAll({ after: this.after });
        const batch = await this.subscription.nextBatch(500);
        if (batch.length === 0) continue;
        delay = RESUBSCRIBE_FIRST_MS;
        this.after = batch[batch.length - 1]!.position;
        const work: [FeedHandler, RecordedEvent[]][] = [];
        for (const handler of this.handlers.keys()) {
          const wanted = batch.filter((e) => handler.wants(e));
          if (wanted.length > 0) work.push([handler, wanted]);
        }
        if (work.length === 0) continue;
        await this.projector.waitFor(batch[batch.length - 1]!.position, this.waitMs);
        for (const [handler, events] of work) {
          const tail = this.handlers.get(handler);
          if (!tail) continue; // removed while the batch was waited for
          // A failing handler loses this batch, as a failing loop of its own did; the others carry on.
          this.handlers.set(
            handler,
            tail.then(() => handler.handle(events)).catch(() => {}),
          );
        }
      } catch {
        if (this.stopped) return;
        const failed = this.subscription;
        this.subscription = null;
        await failed?.close().catch(() => {});
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, RESUBSCRIBE_MAX_MS);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.close();
    await this.loop;
    await Promise.all(this.handlers.values());
  }
}

/** The ids of the streams the events are on, less the prefix (a user, a manager), once each. */
export function streamIds(events: readonly RecordedEvent[], prefix: string): Set<string> {
  const ids = new Set<string>();
  for (const e of events) if (e.streamId.startsWith(prefix)) ids.add(e.streamId.slice(prefix.length));
  return ids;
}

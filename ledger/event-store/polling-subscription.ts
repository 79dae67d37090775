import { comparePositions, START, type Position, type RecordedEvent, type Subscription } from './port.js';
import type { WakeSignal } from './wake-signal.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PollingSubscriptionOptions {
  after?: Position;
  /** Pages the log after a position (exclusive), in log order. */
  read: (after: Position, max: number) => Promise<RecordedEvent[]>;
  wake: WakeSignal;
  /** Longest sleep when nothing is known to be pending (appends by other processes). */
  idleMs?: number;
}

/**
 * Catch-up then live, on top of a paged reader and a wake signal: a subscriber is woken
 * at once by an append in this process and polls slowly for appends from elsewhere.
 */
export function pollingSubscription(opts: PollingSubscriptionOptions): Subscription {
  let position = opts.after ?? START;
  let closed = false;
  const idleMs = opts.idleMs ?? 250;

  async function nextBatch(max: number): Promise<RecordedEvent[]> {
    let backoff = 1;
    while (!closed) {
      const seen = opts.wake.version;
      const events = await opts.read(position, max);
      if (closed) return [];
      if (events.length > 0) {
        position = events[events.length - 1]!.position;
        return events;
      }
      const latest = opts.wake.latest;
      if (latest && comparePositions(latest, position) > 0) {
        // Appended and committed, but an older writer is still in flight, so the log is
        // not yet readable past it: look again soon rather than at the next idle tick.
        await sleep(backoff);
        backoff = Math.min(backoff * 2, 20);
        continue;
      }
      backoff = 1;
      await opts.wake.wait(seen, idleMs);
    }
    return [];
  }

  return {
    nextBatch,
    async close() {
      closed = true;
      opts.wake.wakeAll();
    },
    async *[Symbol.asyncIterator]() {
      while (!closed) {
        const batch = await nextBatch(256);
        for (const e of batch) yield e;
      }
    },
  };
}

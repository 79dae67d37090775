import { comparePositions, START, type Position, type RecordedEvent, type Subscription } from './port.js';
import type { WakeSignal } from './wake-signal.js';
import { setTimeout as sleep } from 'node:timers/promises';

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

  /** Set when the last page came back short: the wake version seen before reading it. */
  let drainedAt: number | null = null;

  async function nextBatch(max: number): Promise<RecordedEvent[]> {
    let backoff = 1;
    // The last page was short and nothing was appended here since it was read: the log is
    // drained, so wait for news (or the idle tick) instead of reading an empty page first.
    if (drainedAt !== null && drainedAt === opts.wake.version && !(opts.wake.latest && comparePositions(opts.wake.latest, position) > 0)) {
      await opts.wake.wait(drainedAt, idleMs);
    }
    drainedAt = null;
    while (!closed) {
      const seen = opts.wake.version;
      const events = await opts.read(position, max);
      if (closed) return [];
      if (events.length > 0) {
        position = events[events.length - 1]!.position;
        if (events.length < max) drainedAt = seen;
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

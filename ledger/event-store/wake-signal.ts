import { comparePositions, type Position } from './port.js';

/**
 * In-process news of appends. A subscriber notes `version` before it reads and waits
 * with that version afterwards, so an append that lands between the two is not missed.
 */
export class WakeSignal {
  version = 0;
  /** Highest position appended by this process, to know when a read came back short. */
  latest: Position | null = null;
  private waiters = new Set<() => void>();

  notify(position?: Position): void {
    this.version++;
    if (position && (!this.latest || comparePositions(position, this.latest) > 0)) this.latest = position;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const w of waiters) w();
  }

  /** Resolves when notified after `seenVersion`, or after `timeoutMs`. */
  wait(seenVersion: number, timeoutMs: number): Promise<void> {
    if (this.version !== seenVersion) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }

  /** Wakes every waiter so that closing subscriptions return at once. */
  wakeAll(): void {
    this.notify();
  }
}

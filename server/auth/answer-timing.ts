import { setTimeout as sleep } from 'node:timers/promises';

/** How many recent durations of each path are kept. */
const KEEP = 64;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Makes a call's cheap path take as long as its full one, so that the time of an answer does not
 * tell which path ran (a sign-up for a registered address creates nothing, a new one creates an
 * account). Both paths note their recent durations; the cheap one then waits for the difference of
 * the two medians, so that its answers are as slow as the full path's, under whatever load the
 * machine has. (Waiting for a random full duration instead, or up to one, adds this call's own
 * delays on top and makes the cheap path the slower one.)
 */
export class AnswerTiming {
  private readonly full: number[] = [];
  private readonly cheap: number[] = [];

  /** Notes how long a call that did the full work took, from `startedAt` (performance.now()). */
  noteFull(startedAt: number): void {
    keep(this.full, performance.now() - startedAt);
  }

  /** Notes the cheap path's own duration, then waits as long as the full path takes more (nothing noted yet: no wait). */
  async padCheap(startedAt: number): Promise<void> {
    keep(this.cheap, performance.now() - startedAt);
    if (this.full.length === 0) return;
    const extra = median(this.full) - median(this.cheap);
    if (extra > 0) await sleep(extra);
  }
}

function keep(list: number[], ms: number): void {
  list.push(ms);
  if (list.length > KEEP) list.shift();
}

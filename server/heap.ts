import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow past what its last full collection kept: the next limit is
 * that live size times (1 + percent / 100); 0 leaves V8's own factor (up to 4x while the
 * heap is growing fast). Under 64 connections of commands each request's objects outlive a
 * young-generation collection and are promoted, so with V8's factor the old generation grew
 * to 4 times its live objects before it was collected: 240 to 289 MB of peak RSS against
 * 172 to 182 MB with 30 or 50%, at the same rate
 * (docs/performance.md, "Findings the code keeps"; round 8 in that file's git history).
 * A factor, not a cap, so a larger live set (the command handler's cache of wallet states)
 * only makes the heap larger, never stops the process.
 */
function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/**
 * Turns off V8's allocation-site pretenuring. V8 allocates straight into the old generation
 * from an allocation site whose objects mostly survived a young collection. The command
 * handler's cache keeps every wallet's transactions, amounts included, so the sites of
 * decimal.js and of plain objects and arrays qualified, and every request's short-lived
 * amounts and objects from them went to the old generation too: more full collections, and
 * their pauses in the commands' tail. Without it, under 64 connections of commands: p99 27 to
 * 38 ms against 33 to 44, server CPU per command 124 to 148 us against 145 to 157
 * (docs/performance.md, "Findings the code keeps"; round 14 in that file's git history).
 */
function keepShortLivedObjectsYoung(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}

/** The server's heap settings, set once at start by every process that serves the app. */
export function configureHeap(growingPercent: number): void {
  limitHeapGrowth(growingPercent);
  keepShortLivedObjectsYoung();
}

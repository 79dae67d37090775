import { v7 } from 'uuid';

/**
 * A new id for what the log records in volume: events, transactions, swaps, stakes. A UUIDv7
 * (the millisecond it was made, then random bits, monotonic within a process), so that the
 * unique indexes on them grow at their right edge as the log does, instead of taking each new
 * row on a random page of an index as large as the log (docs/decisions.md, "Ids are
 * time-ordered"; docs/performance.md, "Findings the code keeps").
 */
export const newId = (): string => v7();

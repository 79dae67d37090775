import { sql, type Kysely, type Transaction } from 'kysely';
import type { RecordedEvent } from '../ledger/event-store/port.js';
import type { DB } from '../server/db/schema.js';

/** Where a projection writes: the live tables (`public`) or a scratch copy (verify, shadow replay). */
export interface ProjectionTarget {
  trx: Transaction<DB>;
  schema: string;
}

/** `schema.table` as a quoted SQL identifier. */
export function table(target: ProjectionTarget, name: string) {
  return sql.table(`${target.schema}.${name}`);
}

/** A read model: the events it reads and the rows it writes. */
export interface Projection {
  name: string;
  /** The tables it owns; replay empties them, verify compares them. */
  tables: string[];
  /**
   * Its tables that take a row with each command, and the fill factor each keeps live (as its
   * migration sets it). A rebuild packs their pages full and then sets it again
   * (`packedRebuild`, projections/replay.ts): a live insert needs the room it leaves on top
   * of its row, which no packed page has, so it goes to the table's end, which is in memory,
   * not into the scraps of free space a vacuum finds all over a rebuilt table.
   */
  fillFactors?: Record<string, number>;
  handles(eventType: string): boolean;
  /** Applies a batch (in log order) inside the runner's transaction. */
  apply(target: ProjectionTarget, events: RecordedEvent[]): Promise<void>;
  /**
   * Optional, for a pass over many pages (a replay): computes a page's writes before its
   * transaction starts, so that the next page is computed while this one is written. The
   * planner is opened once per pass, on the read model's tables as they are when the pass
   * starts, keeps in memory what it needs from one page to the next, and is given every
   * page of the pass in log order (the events `apply` would get); the write it returns runs
   * inside that page's transaction. A pass that stops early drops its planner.
   */
  planner?(db: Kysely<DB>, schema: string): Promise<Planner>;
}

/** A page's writes, computed ahead (`Projection.planner`). */
export type PlannedWrite = (target: ProjectionTarget) => Promise<void>;
export type Planner = (events: RecordedEvent[]) => PlannedWrite;

const DAY_MS = 86_400_000;
/** The day `timestampText` last formatted (days since the epoch) and its `YYYY-MM-DDT`. */
let lastDay = NaN;
let lastDayText = '';

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/**
 * `date.toISOString()`, about five times faster for dates of a day already seen: the
 * date part is kept from the last call and only the time of day is formatted. Replays
 * format the time of nearly every event, most of them of the same day as the one before.
 */
export function timestampText(date: Date): string {
  const ms = date.getTime();
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    const text = date.toISOString();
    if (text.length !== 24) return text; // a year outside 0000-9999 (±YYYYYY)
    lastDay = day;
    lastDayText = text.slice(0, 11);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${lastDayText}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

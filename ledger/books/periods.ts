import { z } from 'zod';
import type { Decider } from '../decider.js';
import type { EventStore } from '../event-store/port.js';

/**
 * Closed periods of the books. `ledger close --period 2026-01` records that everything with a
 * value date up to the end of January 2026 (UTC) is final; the wallet's decider then refuses a
 * manual transaction dated on or before that moment (ledger/wallet/closed-period.ts), so a
 * correction is an adjusting entry in the open period. Closing a month closes every earlier one.
 */
export const BOOKS_CATEGORY = 'books';
export const PERIODS_ID = 'periods';
export const PERIODS_STREAM = `${BOOKS_CATEGORY}-${PERIODS_ID}`;

export const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const booksEventSchemas = {
  'books.period-closed': {
    version: 1,
    schema: z.object({
      period: z.string().regex(PERIOD),
      /** The last moment of the period (UTC): entries with a value date up to it are refused afterwards. */
      closedThrough: z.iso.datetime(),
      /** The log's position the period's books were read at when it closed. */
      position: z.string().nullable(),
    }),
  },
  /** `ledger liabilities --publish`: what customers were owed at `at`, committed to by a Merkle root (ledger/books/merkle.ts). */
  'books.liabilities-published': {
    version: 1,
    schema: z.object({
      at: z.iso.datetime(),
      root: z.string().regex(/^[0-9a-f]{64}$/),
      customers: z.number().int().nonnegative(),
      /** Per asset, the sum of every customer's owed amount. */
      totals: z.record(z.string(), z.string()),
    }),
  },
  /** `ledger reserves import`: what the custodians hold per asset, as the operator's file gave it. */
  'books.reserves-imported': {
    version: 1,
    schema: z.object({
      holdings: z.record(z.string(), z.string()),
      file: z.string(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  },
} as const;

type Schemas = typeof booksEventSchemas;
export type BooksEvent = { [T in keyof Schemas]: { type: T; data: z.infer<Schemas[T]['schema']> } }[keyof Schemas];
export const LIABILITIES_STREAM = `${BOOKS_CATEGORY}-liabilities`;
export const RESERVES_STREAM = `${BOOKS_CATEGORY}-reserves`;
export type BooksCommand =
  | { type: 'ClosePeriod'; period: string; now: string; position: string | null }
  | { type: 'PublishLiabilities'; at: string; root: string; customers: number; totals: Record<string, string> }
  | { type: 'ImportReserves'; holdings: Record<string, string>; file: string; sha256: string };

export interface BooksState {
  closedThrough: string | null;
  closed: string[];
}

export class BooksError extends Error {
  override name = 'UsageError';
}

/** The first and last moment of a month `YYYY-MM`, UTC. */
export function periodBounds(period: string): { from: Date; to: Date } {
  const m = PERIOD.exec(period);
  if (!m) throw new BooksError(`--period must be a month like 2026-01, not "${period}".`);
  const [year, month] = [Number(m[1]), Number(m[2])];
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1) - 1) };
}

export function decideBooks(command: BooksCommand, state: BooksState): BooksEvent[] {
  if (command.type === 'PublishLiabilities') {
    const { type: _type, ...data } = command;
    return [{ type: 'books.liabilities-published', data }];
  }
  if (command.type === 'ImportReserves') {
    const { type: _type, ...data } = command;
    return [{ type: 'books.reserves-imported', data }];
  }
  const { to } = periodBounds(command.period);
  if (to.getTime() >= Date.parse(command.now))
    throw new BooksError(`${command.period} has not ended yet; a period closes after its last day.`);
  if (state.closedThrough && to.getTime() <= Date.parse(state.closedThrough))
    throw new BooksError(`${command.period} is closed already (the books are closed through ${state.closedThrough}).`);
  return [{ type: 'books.period-closed', data: { period: command.period, closedThrough: to.toISOString(), position: command.position } }];
}

export function evolveBooks(state: BooksState, event: BooksEvent): BooksState {
  if (event.type !== 'books.period-closed') return state;
  return { closedThrough: event.data.closedThrough, closed: [...state.closed, event.data.period] };
}

export const booksDecider: Decider<BooksCommand, BooksEvent, BooksState> = {
  category: BOOKS_CATEGORY,
  initialState: () => ({ closedThrough: null, closed: [] }),
  evolve: evolveBooks,
  decide: decideBooks,
  schemas: booksEventSchemas,
};

/** The closed-through moment of the books (null: no period closed): the fact a manual transaction is decided with. */
export async function readClosedThrough(store: EventStore): Promise<string | null> {
  let state = booksDecider.initialState();
  for (const e of await store.readStream(PERIODS_STREAM))
    if (e.type === 'books.period-closed') state = evolveBooks(state, { type: e.type, data: e.data } as BooksEvent);
  return state.closedThrough;
}

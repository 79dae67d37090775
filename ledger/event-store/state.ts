import { formatPosition, type EventStore, type LiveFeedStatus, type Position } from './port.js';

/** What `/readyz` and `ledger stats` say of the event store in use. */
export interface EventStoreState {
  name: EventStore['name'];
  /** It answered a read of its head position in time. */
  reachable: boolean;
  /** Why not, one line. */
  error?: string;
  /** Position of the last event, null for an empty log (or when unreachable). */
  head: string | null;
  /** The live feed the projections follow. */
  live: LiveFeedStatus;
}

export const firstLine = (err: unknown): string => String((err as Error)?.message ?? err).split('\n')[0]!;

export function withTimeout<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Asks the store for its head position (bounded by `timeoutMs`) and reads its live feed's state. */
export async function eventStoreState(store: EventStore, timeoutMs: number): Promise<{ state: EventStoreState; head: Position | null }> {
  try {
    const head = await withTimeout(store.headPosition(), 'the event store', timeoutMs);
    return { state: { name: store.name, reachable: true, head: head ? formatPosition(head) : null, live: store.status() }, head };
  } catch (err) {
    return { state: { name: store.name, reachable: false, error: firstLine(err), head: null, live: store.status() }, head: null };
  }
}

/** The live subscription in a few words (EventStoreDB's; PostgreSQL's feed polls the app's own pool). */
export function describeLiveFeed(live: LiveFeedStatus): string {
  if (live.connected) return 'connected';
  if (live.resubscribing) return `lost, resubscribing${live.lastError ? ` (${live.lastError})` : ''}`;
  return 'not open';
}

/** One line: `event store eventstoredb: unreachable (…), live subscription not open` or `event store postgres: reachable, head 12/3`. */
export function describeEventStore(state: EventStoreState): string {
  const what = state.reachable ? `reachable, head ${state.head ?? '(empty)'}` : `unreachable (${state.error})`;
  return `event store ${state.name}: ${what}${state.name === 'eventstoredb' ? `, live subscription ${describeLiveFeed(state.live)}` : ''}`;
}

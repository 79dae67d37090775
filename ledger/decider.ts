import type { ZodType } from 'zod';
import type { SnapshotCodec } from './snapshots/snapshot.js';

/** A fact as a decider sees it: its type and data, without envelope. */
export interface DomainEvent {
  type: string;
  data: unknown;
}

/** An aggregate's pure pair (see ledger/wallet/wallet.ts for the first one). */
export interface Decider<Command, Event extends DomainEvent, State> {
  /** The stream's category: streams are named `{category}-{id}`. */
  category: string;
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /** Schema and current version of every event type this aggregate writes. */
  schemas: Record<string, { version: number; schema: ZodType }>;
  /** For a stream that grows without bound: how its state is snapshotted (ledger/snapshots/). */
  snapshot?: SnapshotCodec<State, Command>;
}

/**
 * The end of a decider's `decide` switch: with every command handled, `command` is `never` here,
 * so a command added to the union without a case fails to compile.
 */
export function unknownCommand(command: never): never {
  throw new Error(`unknown command ${JSON.stringify((command as { type?: unknown })?.type)}`);
}

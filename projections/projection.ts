import { sql, type Transaction } from 'kysely';
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
  handles(eventType: string): boolean;
  /** Applies a batch (in log order) inside the runner's transaction. */
  apply(target: ProjectionTarget, events: RecordedEvent[]): Promise<void>;
}

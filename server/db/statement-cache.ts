import pg from 'pg';
import { CopyFromStdin, isCopyFromStdin } from './copy-from.js';

/** A statement is given a name (parsed and planned once per connection) from its second use. */
const PREPARE_AFTER = 2;
/** At most this many named statements per connection; texts seen less often are counted in a bounded map. */
const MAX_NAMED = 400;
const MAX_COUNTED = 5000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Which statement texts run as named (prepared) statements. node-postgres sends every
 * query unnamed, so PostgreSQL parses and plans it on every call; for the app's short
 * queries planning costs more than running them (the transactions page: 0.9 ms of planning
 * for 0.3 ms of execution). Like PgJDBC's `prepareThreshold`, a text that comes back gets a
 * name, and each connection then parses it once. Only parameterised DML and queries are
 * named; the number of names is bounded, so texts built with a varying shape cannot grow it
 * without limit.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined) return name;
    if (this.names.size >= MAX_NAMED || !text.includes('$1') || !PREPARABLE.test(text)) return undefined;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < PREPARE_AFTER) {
      if (this.seen.size >= MAX_COUNTED) this.seen.clear();
      this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const named = `s${this.names.size + 1}`;
    this.names.set(text, named);
    return named;
  }
}

/**
 * A pg.Client class that runs repeated statements by name (see StatementNames), and
 * `copy … from stdin` with its data as the one parameter as a COPY (server/db/copy-from.ts).
 */
export function namingClient(names: StatementNames): typeof pg.Client {
  class NamingClient extends pg.Client {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(config?: any) {
      super(config);
      // A connection lost while the client is checked out (the server restarted, an operator
      // ended the backend) rejects the client's queries, and the pool drops the client when
      // it is released. node-postgres also emits 'error' on the client then, and the pool
      // listens only while the client is idle: without this listener the event would end
      // the process.
      this.on('error', () => {});
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config === 'string' && Array.isArray(values) && typeof callback !== 'function') {
        if (isCopyFromStdin(config, values)) {
          const copy = new CopyFromStdin(config, values[0]);
          super.query(copy);
          return copy.result;
        }
        const name = names.nameFor(config);
        if (name) return super.query({ name, text: config, values });
      }
      return super.query(config, values, callback);
    }
  }
  return NamingClient as unknown as typeof pg.Client;
}

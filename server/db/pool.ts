import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * How Kysely checks out node-postgres' clients: with a bound on the wait, and, when asked,
 * with prepared statements.
 *
 * Prepared statements for a pool of node-postgres, through its public API: a query given a
 * `name` is parsed and planned once per server connection and then only bound and run; an
 * unnamed one is parsed and planned every time. On the profile and transactions reads that
 * was the difference between 0.60x and 0.35x of the benchmark's baseline
 * (docs/performance.md, "Pooler-safe database access").
 *
 * A prepared statement lives on one server connection, so they are for a direct connection
 * to PostgreSQL, or a pooler that tracks them (PgBouncer >= 1.21 with
 * `max_prepared_statements`); behind an older transaction pooler the next statement may run
 * on another server connection, which does not know the name. That is why they are a setting
 * (`DB_PREPARED_STATEMENTS`), off by default.
 *
 * Only statements with parameters are named: a text without any is DDL, a migration's
 * several statements in one, or a constant `begin`/`commit`, which cannot or need not be
 * prepared. Every connection keeps what it prepared until it closes, so the number of names
 * is bounded: past `MAX_NAMED` distinct texts (a list whose length varies gives a text per
 * length) the rest go unnamed.
 */
export const MAX_NAMED = 500;

export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly max = MAX_NAMED) {}

  /** The name of `text`'s prepared statement, or undefined when it is to go unnamed. */
  nameOf(text: string, values: readonly unknown[]): string | undefined {
    if (values.length === 0) return undefined;
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= this.max) return known;
    const name = `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * A pool's client waited for longer than the pool's checkout timeout (`DB_CHECKOUT_TIMEOUT_MS`):
 * every connection was busy. Answered 503 with Retry-After (server/plugins/errors.ts), where
 * waiting without limit would hold the request, and those behind it, until the client gives up.
 */
export class DatabaseBusyError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(cause: unknown) {
    super('no database connection became free in time', { cause });
  }
}

/** pg-pool's two ways of saying a checkout timed out (it gives them no code). */
const CHECKOUT_TIMEOUT = /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/** A client of `pool`; a checkout that times out is a DatabaseBusyError. */
export async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    if (err instanceof Error && CHECKOUT_TIMEOUT.test(err.message)) throw new DatabaseBusyError(err);
    throw err;
  }
}

/**
 * An error after which a pooled connection is not used again: the server it reaches is a
 * standby now (read-only transaction, 25006: a failover demoted it, or a router still points
 * there), or it is going away (57P01-57P03: shut down, crashed, not accepting connections yet;
 * class 08: the connection failed). node-postgres' pool already drops a client whose socket
 * closed; one like these would otherwise go back to the pool and fail the next request too.
 */
export function staleConnection(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code === '25006' || /^57P0[1-3]$/.test(code) || code.startsWith('08'));
}

/** Releases `client` to its pool, or, after a `staleConnection` error, closes it (the pool opens a new one). */
export function releaseClient(client: pg.PoolClient, failure: unknown): void {
  client.release(staleConnection(failure) ? (failure as Error) : undefined);
}

/** `pool` as Kysely's PostgresDialect takes it: checked out with `checkout`, statements named by `names` when given. */
export function kyselyPool(pool: pg.Pool, names?: StatementNames): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await checkout(pool);
      // The first stale-connection error decides the release (the statements after it fail otherwise).
      let failure: unknown;
      const noted = <T>(answer: Promise<T>) =>
        answer.catch((err: unknown) => {
          if (failure === undefined && staleConnection(err)) failure = err;
          throw err;
        });
      // A cursor (Kysely's streaming) goes through as it is; a text with its values gets its name.
      const query = (textOrCursor: unknown, values: unknown[] = []) =>
        typeof textOrCursor === 'string'
          ? noted(client.query({ name: names?.nameOf(textOrCursor, values), text: textOrCursor, values }))
          : client.query(textOrCursor as pg.Submittable);
      return { query: query as unknown as PostgresPoolClient['query'], release: () => releaseClient(client, failure) };
    },
    end: () => pool.end(),
  };
}

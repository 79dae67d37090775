import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';

/**
 * A statement whose text does not depend on its arguments, built and compiled once per
 * database: later calls send the same text with their own parameters. Building a query with
 * many columns through the query builder costs more in the server than running it (the
 * profile details: a fifth of the request). `build` must pass its arguments as the
 * statement's parameters, each once and in order; the first call checks that.
 */
export function compiledOnce<DB, Args extends unknown[], Row>(build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>) {
  const texts = new WeakMap<Kysely<DB>, string>();
  return async (db: Kysely<DB>, ...args: Args): Promise<QueryResult<Row>> => {
    const text = texts.get(db);
    if (text !== undefined) return db.executeQuery<Row>(CompiledQuery.raw(text, args));
    const compiled = build(db, ...args).compile();
    if (compiled.parameters.length !== args.length || compiled.parameters.some((p, i) => p !== args[i])) {
      throw new Error('compiledOnce: the statement must take its arguments as its parameters, each once and in order');
    }
    texts.set(db, compiled.sql);
    return db.executeQuery<Row>(compiled);
  };
}

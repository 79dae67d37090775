import { sql } from 'kysely';
import type { ExpectedRevision, NewEvent } from './port.js';
import type { ChainedEvent } from './chain.js';

/**
 * The PostgreSQL event store's append statements: one stream's append, and a group commit of
 * several streams' appends in one statement, each checking its expected revision.
 */

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  /**
   * The events hashed in memory from the stream's head (chain.ts), or null for a stream whose
   * events are not chained yet (appended before the chain, not backfilled): its events get no hash.
   */
  chained: ChainedEvent[] | null;
  /**
   * For an exact expectation: the head hash the chain was computed from (hex, null for an
   * unchained stream). The statement moves the stream only if its stored head hash is this one.
   */
  prevHash: string | null;
}

/** What an append statement answers for one stream: its transaction, last position and revision. */
export interface AppendRow {
  tx: string;
  last_position: string;
  last_revision: string;
}

/** What `appendStatement` answers: no transaction when the expectation failed (nothing inserted). */
export type AppendStatementRow = Omit<AppendRow, 'tx'> & { tx: string | null };

/** The row of `appendStatement`; none when the expectation failed. */
export function writtenRow(row: AppendStatementRow | undefined): AppendRow | undefined {
  return row && row.tx !== null ? (row as AppendRow) : undefined;
}

/**
 * One event as a JSON object of the statement's rows `e`: its append (`a`, from 1), its place
 * in that append (`k`, from 1), its columns. Data and metadata are the canonical texts the hash
 * was computed from (valid JSON; jsonb does not keep key order), so each is serialised once.
 */
function eventRecord(a: number, k: number, e: NewEvent, c: ChainedEvent | undefined): string {
  const head = `{"a":${a},"k":${k},"event_id":${JSON.stringify(e.eventId)},"event_type":${JSON.stringify(e.type)},"event_version":${e.version}`;
  return c
    ? `${head},"data":${c.dataJson},"metadata":${c.metadataJson},"hash":"${c.hash}"}`
    : `${head},"data":${JSON.stringify(e.data)},"metadata":${JSON.stringify(e.metadata)},"hash":null}`;
}

/**
 * The events of an append statement as rows `e`, sent as ONE JSON document, where arrays of
 * JSON texts (`jsonb[]`) made node-postgres escape every quote of every event into an array
 * literal, and PostgreSQL undo it.
 */
function eventRecords(records: string[]) {
  return sql`jsonb_to_recordset(${`[${records.join(',')}]`}::jsonb)
    as e(a int, k int, event_id uuid, event_type text, event_version int, data jsonb, metadata jsonb, hash text)`;
}

const lastHash = (a: StreamAppend) => (a.chained ? a.chained[a.chained.length - 1]!.hash : null);
const hexOrNull = (h: string | null) => sql`decode(${h}::text, 'hex')`;

/**
 * The whole append as one statement: move the stream's revision on by the number of events
 * if the expectation holds (no row when it does not), then insert the events numbered from
 * there. Answers the writer's transaction id, the last position and the last revision.
 */
export function appendStatement(append: StreamAppend) {
  const { streamId, events, expected } = append;
  const count = events.length;
  const head = hexOrNull(lastHash(append));
  let bump;
  if (expected === 'no_stream') {
    bump = sql`insert into streams (stream_id, revision, last_tx, head_hash) values (${streamId}, ${count - 1}, pg_current_xact_id(), ${head})
      on conflict (stream_id) do nothing returning revision, last_tx`;
  } else if (expected === 'any') {
    bump = sql`insert into streams (stream_id, revision, last_tx, head_hash) values (${streamId}, ${count - 1}, pg_current_xact_id(), ${head})
      on conflict (stream_id) do update set revision = streams.revision + ${count}, updated_at = now(),
        last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id()), head_hash = null
      returning revision, last_tx`;
  } else if (expected === 'stream_exists') {
    bump = sql`update streams set revision = revision + ${count}, updated_at = now(), last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id()), head_hash = null
      where stream_id = ${streamId} returning revision, last_tx`;
  } else {
    bump = sql`update streams set revision = revision + ${count}, updated_at = now(), last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id()), head_hash = ${head}
      where stream_id = ${streamId} and revision = ${expected.toString()} and head_hash is not distinct from ${hexOrNull(append.prevHash)}
      returning revision, last_tx`;
  }
  return sql<AppendStatementRow>`
    with bump as (${bump}),
    inserted as (
      insert into events (event_id, stream_id, stream_revision, event_type, event_version, data, metadata, tx_id, hash)
      select e.event_id, ${streamId}, bump.revision - ${count} + e.k, e.event_type, e.event_version, e.data, e.metadata, bump.last_tx, decode(e.hash, 'hex')
      from bump, ${eventRecords(events.map((e, i) => eventRecord(0, i + 1, e, append.chained?.[i])))}
      order by e.k
      returning tx_id, global_position, stream_revision
    )
    select max(tx_id::text) as tx, max(global_position)::text as last_position, max(stream_revision)::text as last_revision from inserted`;
}

/**
 * Several appends to distinct streams in one statement (group commit, `AppendBatcher`): each
 * stream's revision moves as `appendStatement` moves it, by its own expectation, and its events
 * are inserted after it, in order. A stream whose expectation fails moves nothing, inserts
 * nothing and has no row in the answer; the others are written. An append alone keeps
 * `appendStatement`: measured in quick runs, this statement for one append made the 100-event
 * appends 5.4x to 5.6x plain inserts (5.8x to 6.4x) and four handlers racing for one wallet
 * 729 to 745 withdrawals/s (877 to 956).
 */
export function batchAppendStatement(appends: StreamAppend[]) {
  const kinds = appends.map((a) => (typeof a.expected === 'bigint' ? 'exact' : a.expected));
  const expected = appends.map((a) => (typeof a.expected === 'bigint' ? a.expected.toString() : null));
  const prevHashes = appends.map((a) => (typeof a.expected === 'bigint' ? a.prevHash : null));
  const heads = appends.map(lastHash);
  const records: string[] = [];
  appends.forEach((a, i) => a.events.forEach((e, k) => records.push(eventRecord(i + 1, k + 1, e, a.chained?.[k]))));
  return sql<AppendRow & { stream_id: string }>`
    with input as (
      select * from unnest(${appends.map((a) => a.streamId)}::text[], ${kinds}::text[], ${expected}::bigint[], ${appends.map((a) => a.events.length)}::int[],
          ${prevHashes}::text[], ${heads}::text[])
        with ordinality as i(stream_id, kind, expected, count, prev_hash, head_hash, a)
    ),
    created as (
      insert into streams (stream_id, revision, last_tx, head_hash)
      select stream_id, count - 1, pg_current_xact_id(), decode(head_hash, 'hex') from input where kind = 'no_stream'
      on conflict (stream_id) do nothing returning stream_id, revision, last_tx
    ),
    upserted as (
      insert into streams (stream_id, revision, last_tx, head_hash)
      select stream_id, count - 1, pg_current_xact_id(), decode(head_hash, 'hex') from input where kind = 'any'
      on conflict (stream_id) do update set revision = streams.revision + excluded.revision + 1, updated_at = now(),
        last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id()), head_hash = null
      returning stream_id, revision, last_tx
    ),
    moved as (
      update streams s set revision = s.revision + i.count, updated_at = now(), last_tx = greatest(coalesce(s.last_tx, '0'::xid8), pg_current_xact_id()),
        head_hash = case when i.kind = 'exact' then decode(i.head_hash, 'hex') end
      from input i
      where s.stream_id = i.stream_id
        and (i.kind = 'stream_exists' or (i.kind = 'exact' and s.revision = i.expected and s.head_hash is not distinct from decode(i.prev_hash, 'hex')))
      returning s.stream_id, s.revision, s.last_tx
    ),
    bump as (select * from created union all select * from upserted union all select * from moved),
    inserted as (
      insert into events (event_id, stream_id, stream_revision, event_type, event_version, data, metadata, tx_id, hash)
      select e.event_id, i.stream_id, b.revision - i.count + e.k, e.event_type, e.event_version, e.data, e.metadata, b.last_tx, decode(e.hash, 'hex')
      from ${eventRecords(records)}
      join input i on i.a = e.a
      join bump b on b.stream_id = i.stream_id
      order by e.a, e.k
      returning stream_id, tx_id, global_position, stream_revision
    )
    select stream_id, max(tx_id::text) as tx, max(global_position)::text as last_position, max(stream_revision)::text as last_revision
    from inserted group by stream_id`;
}

import { sql } from 'kysely';
import type { ExpectedRevision, NewEvent } from './port.js';

/**
 * The PostgreSQL event store's append statements: one stream's append, and a group commit of
 * several streams' appends in one statement, each checking its expected revision.
 */

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
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

/** An event as the append statements read it: its append (`a`, from 1), its place in that append (`k`, from 1), its columns. */
interface EventRecord {
  a: number;
  k: number;
  event_id: string;
  event_type: string;
  event_version: number;
  data: unknown;
  metadata: unknown;
}

function eventRecord(a: number, k: number, e: NewEvent): EventRecord {
  return { a, k, event_id: e.eventId, event_type: e.type, event_version: e.version, data: e.data, metadata: e.metadata };
}

/**
 * The events of an append statement as rows `e`, sent as ONE JSON document: one
 * JSON.stringify for them all, where arrays of JSON texts (`jsonb[]`) made node-postgres
 * escape every quote of every event into an array literal, and PostgreSQL undo it.
 */
function eventRecords(records: EventRecord[]) {
  return sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
    as e(a int, k int, event_id uuid, event_type text, event_version int, data jsonb, metadata jsonb)`;
}

/**
 * The whole append as one statement: move the stream's revision on by the number of events
 * if the expectation holds (no row when it does not), then insert the events numbered from
 * there. Answers the writer's transaction id, the last position and the last revision.
 */
export function appendStatement({ streamId, events, expected }: StreamAppend) {
  const count = events.length;
  let bump;
  if (expected === 'no_stream') {
    bump = sql`insert into streams (stream_id, revision, last_tx) values (${streamId}, ${count - 1}, pg_current_xact_id())
      on conflict (stream_id) do nothing returning revision, last_tx`;
  } else if (expected === 'any') {
    bump = sql`insert into streams (stream_id, revision, last_tx) values (${streamId}, ${count - 1}, pg_current_xact_id())
      on conflict (stream_id) do update set revision = streams.revision + ${count}, updated_at = now(),
        last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      returning revision, last_tx`;
  } else if (expected === 'stream_exists') {
    bump = sql`update streams set revision = revision + ${count}, updated_at = now(), last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      where stream_id = ${streamId} returning revision, last_tx`;
  } else {
    bump = sql`update streams set revision = revision + ${count}, updated_at = now(), last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      where stream_id = ${streamId} and revision = ${expected.toString()} returning revision, last_tx`;
  }
  return sql<AppendStatementRow>`
    with bump as (${bump}),
    inserted as (
      insert into events (event_id, stream_id, stream_revision, event_type, event_version, data, metadata, tx_id)
      select e.event_id, ${streamId}, bump.revision - ${count} + e.k, e.event_type, e.event_version, e.data, e.metadata, bump.last_tx
      from bump, ${eventRecords(events.map((e, i) => eventRecord(0, i + 1, e)))}
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
  const records: EventRecord[] = [];
  appends.forEach((a, i) => a.events.forEach((e, k) => records.push(eventRecord(i + 1, k + 1, e))));
  return sql<AppendRow & { stream_id: string }>`
    with input as (
      select * from unnest(${appends.map((a) => a.streamId)}::text[], ${kinds}::text[], ${expected}::bigint[], ${appends.map((a) => a.events.length)}::int[])
        with ordinality as i(stream_id, kind, expected, count, a)
    ),
    created as (
      insert into streams (stream_id, revision, last_tx)
      select stream_id, count - 1, pg_current_xact_id() from input where kind = 'no_stream'
      on conflict (stream_id) do nothing returning stream_id, revision, last_tx
    ),
    upserted as (
      insert into streams (stream_id, revision, last_tx)
      select stream_id, count - 1, pg_current_xact_id() from input where kind = 'any'
      on conflict (stream_id) do update set revision = streams.revision + excluded.revision + 1, updated_at = now(),
        last_tx = greatest(coalesce(streams.last_tx, '0'::xid8), pg_current_xact_id())
      returning stream_id, revision, last_tx
    ),
    moved as (
      update streams s set revision = s.revision + i.count, updated_at = now(), last_tx = greatest(coalesce(s.last_tx, '0'::xid8), pg_current_xact_id())
      from input i
      where s.stream_id = i.stream_id and (i.kind = 'stream_exists' or (i.kind = 'exact' and s.revision = i.expected))
      returning s.stream_id, s.revision, s.last_tx
    ),
    bump as (select * from created union all select * from upserted union all select * from moved),
    inserted as (
      insert into events (event_id, stream_id, stream_revision, event_type, event_version, data, metadata, tx_id)
      select e.event_id, i.stream_id, b.revision - i.count + e.k, e.event_type, e.event_version, e.data, e.metadata, b.last_tx
      from ${eventRecords(records)}
      join input i on i.a = e.a
      join bump b on b.stream_id = i.stream_id
      order by e.a, e.k
      returning stream_id, tx_id, global_position, stream_revision
    )
    select stream_id, max(tx_id::text) as tx, max(global_position)::text as last_position, max(stream_revision)::text as last_revision
    from inserted group by stream_id`;
}

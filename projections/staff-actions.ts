import { sql } from 'kysely';
import { formatPosition, type RecordedEvent } from '../ledger/event-store/port.js';
import {
  attribute,
  requestIdOf,
  STAFF_ACTION_RULES,
  staffActionOf as actionOf,
  type RequestParties,
} from '../ledger/audit/staff-actions.js';
import { summaryOf, withoutCardNumbers, withoutSecrets } from '../server/staff/event-trail.js';
import { table, timestampText, type Projection, type ProjectionTarget } from './projection.js';

type Data = Record<string, unknown>;

const DETAIL_MAX = 300;
const ROWS_PER_INSERT = 1000;
const COLUMNS = sql.raw(
  '(event_id, at, action, maker_id, maker_role, checker_id, checker_role, customer_id, request_id, detail, event_type, position)',
);
/** The two-person rule's events whose rows say who made and who checked a request. */
const REQUEST_EVENTS = ['wallet.approval-requested', 'wallet.approval-approved'];

/** The account an event is about: the id in its stream's name (`user-{id}`, `wallet-{id}`). */
function subjectOf(streamId: string): string | null {
  const m = /^(?:user|wallet)-([0-9a-f-]{36})$/i.exec(streamId);
  return m ? m[1]!.toLowerCase() : null;
}

export type StaffActionRow = NonNullable<ReturnType<typeof staffActionOf>>;

/**
 * The row an event gives, or null when it is not a staff action. `requests` holds the makers
 * and checkers of the requests seen so far (updated as approval events go by).
 */
export function staffActionOf(e: RecordedEvent, requests: Map<string, RequestParties> = new Map()) {
  const found = actionOf(e.type, e.data, e.metadata);
  if (!found) return null;
  const data = (e.data ?? {}) as Data;
  const who = attribute(e.type, data, found.actor, requests);
  const subject = subjectOf(e.streamId);
  const shown = withoutCardNumbers(withoutSecrets(data)) as Data;
  const summary = summaryOf(e.type, shown);
  return {
    eventId: e.eventId,
    at: timestampText(e.recordedAt),
    action: found.action,
    maker: who.maker,
    checker: who.checker,
    // A staff member's own sign-in is about no customer.
    customerId: subject === found.actor.id ? null : subject,
    requestId: who.requestId,
    detail: summary.length > DETAIL_MAX ? `${summary.slice(0, DETAIL_MAX - 1)}…` : summary,
    eventType: e.type,
    position: formatPosition(e.position),
  };
}

/**
 * The makers and checkers of the requests a batch names, from the rows of earlier batches: an
 * approval and the transaction it created are one append, but a page of the log may end
 * between them, and a settlement may name an approval given long before.
 */
async function knownRequests(target: ProjectionTarget, events: RecordedEvent[]): Promise<Map<string, RequestParties>> {
  const ids = [...new Set(events.map((e) => requestIdOf(e.type, e.data)).filter((id): id is string => id !== null))];
  const requests = new Map<string, RequestParties>();
  if (ids.length === 0) return requests;
  const { rows } = await sql<{
    request_id: string;
    event_type: string;
    maker_id: string | null;
    maker_role: string | null;
    checker_id: string | null;
    checker_role: string | null;
  }>`select request_id, event_type, maker_id, maker_role, checker_id, checker_role from ${table(target, 'staff_activity')}
     where request_id = any(${ids}::uuid[]) and event_type = any(${REQUEST_EVENTS}::text[])`.execute(target.trx);
  // The request first, then its approval (which names the checker).
  rows.sort((a, b) => REQUEST_EVENTS.indexOf(a.event_type) - REQUEST_EVENTS.indexOf(b.event_type));
  for (const r of rows) {
    const maker = { id: r.maker_id, role: r.maker_role };
    requests.set(r.request_id, { maker, checker: r.checker_id ? { id: r.checker_id, role: r.checker_role } : null });
  }
  return requests;
}

/**
 * staff_activity: who of the staff did what to which account, and when, with the maker and
 * checker of each (migration 0030; it replaces staff_actions, which the previous release wrote).
 */
export const staffActionsProjection: Projection = {
  name: 'staff-activity',
  tables: ['staff_activity'],
  handles: (type) => type in STAFF_ACTION_RULES,

  async apply(target, events) {
    const requests = await knownRequests(target, events);
    const rows = events.flatMap((e) => {
      const r = staffActionOf(e, requests);
      return r
        ? [
            sql`(${r.eventId}::uuid, ${r.at}::timestamptz, ${r.action}, ${r.maker.id}::uuid, ${r.maker.role}, ${r.checker?.id ?? null}::uuid, ${r.checker?.role ?? null}, ${r.customerId}::uuid, ${r.requestId}::uuid, ${r.detail}, ${r.eventType}, ${r.position})`,
          ]
        : [];
    });
    // One statement per thousand rows (12 parameters each, under the protocol's 65,535).
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await sql`insert into ${table(target, 'staff_activity')} ${COLUMNS} values ${sql.join(rows.slice(i, i + ROWS_PER_INSERT))}`.execute(
        target.trx,
      );
    }
  },
};

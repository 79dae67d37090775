import { sql, type Kysely } from 'kysely';
import { usersByEmail } from '../auth/accounts.js';
import type { DB } from '../db/schema.js';
import { isUuid } from '../ids.js';
import { csvRow } from '../../ledger/csv.js';
import type { StaffAction } from '../../ledger/contract/staff-activity.js';

export const STAFF_ACTIVITY_DENIED = 'Access Denied: Only admins can view staff activity.';
/** A CSV download holds at most this many rows (the newest that match); filters narrow it. */
export const STAFF_ACTIONS_EXPORT_MAX = 100_000;

export interface StaffActionFilter {
  staffId?: string;
  customerId?: string;
  action?: string;
  from?: Date;
  to?: Date;
}

/** A row as the API answers it (ledger/contract/staff-activity.ts). */
export type StaffActionRow = StaffAction;

export interface StaffActionPage {
  actions: StaffActionRow[];
  /** Give it back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** Where a page ended: the (at, event_id) of its last row. */
function encodeCursor(at: string, eventId: string): string {
  return Buffer.from(`${at}|${eventId}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: string; eventId: string } | null {
  const [at, eventId, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (extra !== undefined || !at || !isUuid(eventId) || Number.isNaN(Date.parse(at))) return null;
  return { at, eventId };
}

/**
 * One page of the staff activity, newest first. Keyset paging on (at, event_id): each filter
 * has an index in that order (migration 0021), so a page costs the same at row 10 or 1,000,000.
 */
export async function listStaffActions(
  db: Kysely<DB>,
  filter: StaffActionFilter,
  page: { limit: number; cursor?: { at: string; eventId: string } },
): Promise<StaffActionPage> {
  const conditions = [sql`true`];
  if (filter.staffId) conditions.push(sql`a.staff_id = ${filter.staffId}::uuid`);
  if (filter.customerId) conditions.push(sql`a.customer_id = ${filter.customerId}::uuid`);
  if (filter.action) conditions.push(sql`a.action = ${filter.action}`);
  if (filter.from) conditions.push(sql`a.at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`a.at <= ${filter.to.toISOString()}::timestamptz`);
  if (page.cursor) conditions.push(sql`(a.at, a.event_id) < (${page.cursor.at}::timestamptz, ${page.cursor.eventId}::uuid)`);
  const { rows } = await sql<Omit<StaffActionRow, 'at'> & { at: Date | string }>`
    select a.at, a.staff_id, s.email as staff_email, s.full_name as staff_name, a.staff_role, a.customer_id, c.email as customer_email,
      a.action, a.detail, a.event_id, a.position
    from (select * from staff_actions a where ${sql.join(conditions, sql` and `)} order by a.at desc, a.event_id desc limit ${page.limit + 1}) a
    left join lateral (select email, full_name from users where id = a.staff_id) s on true
    left join lateral (select email from users where id = a.customer_id) c on true
    order by a.at desc, a.event_id desc`.execute(db);
  const actions = rows.slice(0, page.limit).map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
  const last = actions[actions.length - 1];
  return { actions, nextCursor: rows.length > page.limit && last ? encodeCursor(last.at, last.event_id) : null };
}

const CSV_COLUMNS = [
  'at',
  'staff_id',
  'staff_email',
  'staff_role',
  'customer_id',
  'customer_email',
  'action',
  'detail',
  'event_id',
  'position',
] as const;

export const staffActionsCsvHeader = () => csvRow(CSV_COLUMNS);
export const staffActionsCsvRows = (rows: StaffActionRow[]) => rows.map((r) => csvRow(CSV_COLUMNS.map((c) => r[c]))).join('');

/** Every matching row, newest first, page by page (for an export), up to `max`. */
export async function* allStaffActions(
  db: Kysely<DB>,
  filter: StaffActionFilter,
  max = Number.POSITIVE_INFINITY,
): AsyncGenerator<StaffActionRow[]> {
  let cursor: { at: string; eventId: string } | undefined;
  let left = max;
  while (left > 0) {
    const page = await listStaffActions(db, filter, { limit: Math.min(5000, left), cursor });
    if (page.actions.length) yield page.actions;
    left -= page.actions.length;
    if (!page.nextCursor) return;
    cursor = decodeCursor(page.nextCursor)!;
  }
}

/** An account named by id or e-mail address; undefined when no account has that address. */
export async function accountIdOf(db: Kysely<DB>, given: string): Promise<string | undefined> {
  if (isUuid(given)) return given.toLowerCase();
  return (await usersByEmail(db, given).select('id').executeTakeFirst())?.id;
}

import { sql, type Kysely } from 'kysely';
import { usersByEmail } from '../auth/accounts.js';
import type { DB } from '../db/schema.js';
import { isUuid } from '../ids.js';
import { csvRow } from '../../ledger/csv.js';
import { staffActionLabel, type StaffAction } from '../../ledger/contract/staff-activity.js';

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

type Row = Omit<StaffActionRow, 'at' | 'action_name'> & { at: Date | string };

/**
 * One page of the staff activity, newest first. Keyset paging on (at, event_id): each filter
 * has an index in that order (migrations 0021 and 0030), so a page costs the same at row 10 or
 * 1,000,000. A staff member's actions are those they made and those they checked: the newest
 * of each index, merged.
 */
export async function listStaffActions(
  db: Kysely<DB>,
  filter: StaffActionFilter,
  page: { limit: number; cursor?: { at: string; eventId: string } },
): Promise<StaffActionPage> {
  const conditions = [sql`true`];
  if (filter.customerId) conditions.push(sql`a.customer_id = ${filter.customerId}::uuid`);
  if (filter.action) conditions.push(sql`a.action = ${filter.action}`);
  if (filter.from) conditions.push(sql`a.at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`a.at <= ${filter.to.toISOString()}::timestamptz`);
  if (page.cursor) conditions.push(sql`(a.at, a.event_id) < (${page.cursor.at}::timestamptz, ${page.cursor.eventId}::uuid)`);
  const where = (extra?: ReturnType<typeof sql>) => sql.join(extra ? [...conditions, extra] : conditions, sql` and `);
  const newest = (extra?: ReturnType<typeof sql>) =>
    sql`(select * from staff_activity a where ${where(extra)} order by a.at desc, a.event_id desc limit ${page.limit + 1})`;
  const picked = filter.staffId
    ? sql`(${newest(sql`a.maker_id = ${filter.staffId}::uuid`)} union ${newest(sql`a.checker_id = ${filter.staffId}::uuid`)})`
    : newest();
  const { rows } = await sql<Row>`
    select a.at, a.action, a.maker_id, m.email as maker_email, m.full_name as maker_name, a.maker_role,
      a.checker_id, k.email as checker_email, k.full_name as checker_name, a.checker_role,
      a.customer_id, c.email as customer_email, a.detail, a.event_type, a.event_id, a.position
    from (select * from ${picked} a order by a.at desc, a.event_id desc limit ${page.limit + 1}) a
    left join lateral (select email, full_name from users where id = a.maker_id) m on true
    left join lateral (select email, full_name from users where id = a.checker_id) k on true
    left join lateral (select email from users where id = a.customer_id) c on true
    order by a.at desc, a.event_id desc`.execute(db);
  const actions = rows
    .slice(0, page.limit)
    .map((r) => ({ ...r, at: new Date(r.at).toISOString(), action_name: staffActionLabel(r.action) }));
  const last = actions[actions.length - 1];
  return { actions, nextCursor: rows.length > page.limit && last ? encodeCursor(last.at, last.event_id) : null };
}

/** The CSV's columns: the readable action name, and its code in a column of its own. */
const CSV_COLUMNS = [
  ['at', 'at'],
  ['action', 'action_name'],
  ['action_code', 'action'],
  ['maker_id', 'maker_id'],
  ['maker_email', 'maker_email'],
  ['maker_role', 'maker_role'],
  ['checker_id', 'checker_id'],
  ['checker_email', 'checker_email'],
  ['checker_role', 'checker_role'],
  ['customer_id', 'customer_id'],
  ['customer_email', 'customer_email'],
  ['detail', 'detail'],
  ['event_type', 'event_type'],
  ['event_id', 'event_id'],
  ['position', 'position'],
] as const satisfies readonly (readonly [string, keyof StaffActionRow])[];

export const staffActionsCsvHeader = () => csvRow(CSV_COLUMNS.map(([name]) => name));
export const staffActionsCsvRows = (rows: StaffActionRow[]) => rows.map((r) => csvRow(CSV_COLUMNS.map(([, field]) => r[field]))).join('');

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

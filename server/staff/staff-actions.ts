import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthServices } from '../auth/index.js';
import { onlyFor } from '../shared/access.js';
import { usersByEmail } from '../auth/accounts.js';
import type { LedgerContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { isUuid } from '../ids.js';
import { csvCell } from '../../ledger/journal/statement.js';
import { STAFF_ACTIONS } from '../../projections/staff-actions.js';
import { StaffActionPageSchema, type StaffAction } from '../../ledger/contract/staff-activity.js';
import { Bytes } from '../../ledger/contract/common.js';

export const STAFF_ACTIVITY_DENIED = 'Access Denied: Only admins can view staff activity.';
export const STAFF_ACTIONS_PAGE = 50;
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

export const staffActionsCsvHeader = () => `${CSV_COLUMNS.join(',')}\r\n`;
export const staffActionsCsvRows = (rows: StaffActionRow[]) =>
  rows.map((r) => `${CSV_COLUMNS.map((c) => csvCell(r[c] ?? '')).join(',')}\r\n`).join('');

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

const MOMENT = z.iso.datetime({ offset: true }).or(z.iso.date());
const momentOf = (text: string, endOfDay: boolean) =>
  new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z` : text);

/** GET /api/v1/admin/staff-actions: the Staff activity list (admins only), as JSON pages or one CSV. */
export function staffActionRoutes(auth: AuthServices, ledger: LedgerContext): FastifyPluginAsyncZod {
  const db = ledger.database.db;
  return async (app) => {
    app.get(
      '/admin/staff-actions',
      {
        config: onlyFor(['ADMIN'], STAFF_ACTIVITY_DENIED),
        schema: {
          tags: ['api'],
          response: { 200: z.union([StaffActionPageSchema, Bytes('text/csv: the list with format=csv')]) },
          querystring: z.object({
            staff: z.string().trim().min(1).max(320).optional(),
            customer: z.string().trim().min(1).max(320).optional(),
            action: z.enum(STAFF_ACTIONS as [string, ...string[]]).optional(),
            from: MOMENT.optional(),
            to: MOMENT.optional(),
            cursor: z.string().max(200).optional(),
            limit: z.coerce.number().int().min(1).max(200).default(STAFF_ACTIONS_PAGE),
            format: z.enum(['json', 'csv']).default('json'),
          }),
        },
      },
      async (request, reply) => {
        const q = request.query;
        const filter: StaffActionFilter = { action: q.action };
        for (const [key, field, who] of [
          ['staff', 'staffId', 'staff member'],
          ['customer', 'customerId', 'customer'],
        ] as const) {
          const given = q[key];
          if (given === undefined) continue;
          const id = await accountIdOf(db, given);
          if (!id) throw badRequest(`No ${who} with the e-mail address ${given}.`);
          filter[field] = id;
        }
        if (q.from) filter.from = momentOf(q.from, false);
        if (q.to) filter.to = momentOf(q.to, true);
        if (filter.from && filter.to && filter.from > filter.to) throw badRequest('The start date must be on or before the end date.');
        if (q.format === 'csv') {
          let csv = staffActionsCsvHeader();
          for await (const rows of allStaffActions(db, filter, STAFF_ACTIONS_EXPORT_MAX)) csv += staffActionsCsvRows(rows);
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', 'attachment; filename="staff-activity.csv"')
            .header('cache-control', 'no-store')
            .send(csv);
        }
        const cursor = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
        if (cursor === null) throw badRequest('cursor: not a cursor this list gave.');
        return { ...(await listStaffActions(db, filter, { limit: q.limit, cursor })), actionNames: STAFF_ACTIONS };
      },
    );
  };
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { usersByEmail } from '../../auth/accounts.js';

/* The staff-workers folder's reads (announcements, ownership, the manager's lists, buying links); every query takes the database. */

/** The rows of one page (`limit`, `offset`), or null for the whole list (server/staff/paging.ts). */
type Window = { limit: number; offset: number } | null;

/** Escapes LIKE's wildcards so that a search for '50%' finds '50%', not everything. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One announcement's row, or undefined when there is none with this id. */
export function announcementById(db: Kysely<DB>, announcementId: string) {
  return db.selectFrom('announcements').selectAll().where('id', '=', announcementId).executeTakeFirst();
}

/** A manager's latest announcements, newest first, at most `limit`. */
export function latestAnnouncements(db: Kysely<DB>, managerId: string, limit: number) {
  return db
    .selectFrom('announcements')
    .selectAll()
    .where('manager_id', '=', managerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A user's role and manager, or undefined when the user does not exist. */
export function roleAndManagerOf(db: Kysely<DB>, userId: string) {
  return db.selectFrom('users').select(['role', 'manager_id']).where('id', '=', userId).executeTakeFirst();
}

/** The customer (role USER) with this exact e-mail address, case-insensitive as sign-in treats it; undefined for none. */
export function customerByEmail(db: Kysely<DB>, email: string) {
  return usersByEmail(db, email).select(['id', 'email', 'role']).where('role', '=', 'USER').executeTakeFirst();
}

/** The customers a worker owns, most recently claimed first (one page with a window), and how many there are in all. */
export async function ownedCustomers(db: Kysely<DB>, workerId: string, window: Window) {
  const owned = db
    .selectFrom('user_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .where('p.assigned_worker_id', '=', workerId);
  let rows = owned
    .select(['u.email as user_email', 'p.user_id as profile_user_id', 'p.created_at as profile_created_at'])
    .orderBy('p.claimed_at', 'desc')
    .orderBy('p.user_id');
  if (window) rows = rows.limit(window.limit).offset(window.offset);
  const [ownedUsers, count] = await Promise.all([
    rows.execute(),
    window ? owned.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst() : null,
  ]);
  return { ownedUsers, totalCount: count ? Number(count.n) : ownedUsers.length };
}

/** A manager's workers by name (one page with a window), and how many there are in all. */
export async function workersOf(db: Kysely<DB>, managerId: string, window: Window) {
  const workers = db.selectFrom('users').where('role', '=', 'WORKER').where('manager_id', '=', managerId);
  let rows = workers.select(['id', 'full_name', 'email']).orderBy('full_name').orderBy('id');
  if (window) rows = rows.limit(window.limit).offset(window.offset);
  const [list, count] = await Promise.all([
    rows.execute(),
    window ? workers.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst() : null,
  ]);
  return { list, totalCount: count ? Number(count.n) : list.length };
}

/**
 * One page of customers, newest first, with the name of the worker who claimed each, and how many
 * there are in all: those the workers of `managerId` claimed, or every customer when it is null;
 * a non-empty `search` keeps those whose name or e-mail contains it (case-insensitive).
 */
export async function managedCustomers(db: Kysely<DB>, managerId: string | null, search: string, page: number, perPage: number) {
  let query = db
    .selectFrom('user_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('users as w', 'w.id', 'p.assigned_worker_id')
    .where('u.role', '=', 'USER');
  if (managerId !== null) query = query.where('w.manager_id', '=', managerId);
  if (search) {
    const pattern = `%${likeEscape(search.toLowerCase())}%`;
    query = query.where((eb) => eb.or([eb(sql`lower(u.full_name)`, 'like', pattern), eb(sql`lower(u.email)`, 'like', pattern)]));
  }
  const [rows, count] = await Promise.all([
    query
      .select(['u.id', 'u.full_name', 'u.email', 'p.kyc_status', 'u.created_at', 'w.full_name as assigned_worker_name'])
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
  ]);
  return { rows, totalCount: Number(count?.n ?? 0) };
}

/** A user's custom buying links, newest first. */
export function buyingLinksOf(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('user_crypto_buying_links')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** One buying link's row, or undefined when there is none with this id. */
export function buyingLinkById(db: Kysely<DB>, linkId: string) {
  return db.selectFrom('user_crypto_buying_links').selectAll().where('id', '=', linkId).executeTakeFirst();
}

/** The blob id of a buying link's logo, or undefined when there is no such link. */
export function logoBlobOf(db: Kysely<DB>, linkId: string) {
  return db.selectFrom('user_crypto_buying_links').select('logo_blob_id').where('id', '=', linkId).executeTakeFirst();
}

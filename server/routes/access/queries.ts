import type { Kysely } from 'kysely';
import type { DB, UsersTable } from '../../db/schema.js';

/** The access area's reads of the tables (the sign-in services, server/auth/, keep their own); every query takes the database. */

/** A user's role, or undefined when there is no such user. */
export async function roleOf(db: Kysely<DB>, userId: string): Promise<UsersTable['role'] | undefined> {
  const user = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
  return user?.role;
}

/** One page of a user's sign-ins, newest first; `page` from 1. */
export function loginHistoryPage(db: Kysely<DB>, userId: string, page: number, pageSize: number) {
  return db
    .selectFrom('login_history')
    .select(['id', 'timestamp', 'ip_address', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
}

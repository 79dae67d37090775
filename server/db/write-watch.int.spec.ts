import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { WatchedCache, WriteWatch, writesWatchedTable } from './write-watch.js';

describe('write watch', () => {
  it('recognises writes to users, sessions, factors, profiles and payment methods, from the query builder and raw SQL', () => {
    expect(writesWatchedTable('update "users" set "banned_until" = $1 where "id" = $2')).toBe(true);
    expect(writesWatchedTable('update "public"."auth_sessions" set "revoked_at" = $1')).toBe(true);
    expect(writesWatchedTable('insert into auth_mfa_factors (id, user_id) values ($1, $2)')).toBe(true);
    expect(writesWatchedTable('DELETE FROM auth_sessions WHERE user_id = $1')).toBe(true);
    expect(writesWatchedTable('truncate table users cascade')).toBe(true);
    expect(writesWatchedTable('select * from "users" where "id" = $1')).toBe(false);
    expect(writesWatchedTable('insert into "public"."user_profiles" (user_id, can_buy) values ($1, $2)')).toBe(true);
    expect(writesWatchedTable('delete from "public"."user_payment_methods_raw" where id = $1')).toBe(true);
    expect(writesWatchedTable('copy "public"."users" ("id") from stdin')).toBe(true);
    expect(writesWatchedTable('insert into "user_profiles_archive" ("user_id") values ($1)')).toBe(false);
    expect(writesWatchedTable('select * from user_payment_methods_raw where user_id = $1')).toBe(false);
    expect(writesWatchedTable('update "users_archive" set x = 1')).toBe(false);
  });

  it('a cached read is reused until a watched write or its age limit, and a read that a write overtook is not kept', async () => {
    const watch = new WriteWatch();
    const cache = new WatchedCache<number>(watch, { maxAgeMs: 50, maxSize: 10, keep: (v) => v >= 0 });
    let reads = 0;
    const read = (value: number) => async () => {
      reads++;
      return value;
    };
    expect(await cache.get('a', read(1))).toBe(1);
    expect(await cache.get('a', read(2))).toBe(1);
    expect(reads).toBe(1);
    watch.bump();
    expect(await cache.get('a', read(3))).toBe(3);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('a', read(4))).toBe(4);
    // A write lands while the read is under way: its answer is used once, not kept.
    expect(await cache.get('b', async () => (watch.bump(), 5))).toBe(5);
    expect(await cache.get('b', read(6))).toBe(6);
    // An answer the cache is told not to keep is read again each time.
    expect(await cache.get('c', read(-1))).toBe(-1);
    expect(await cache.get('c', read(-2))).toBe(-2);
  });

  describe('on a database', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database.close();
    });

    it('moves on a committed write, and again when the transaction that wrote ends', async () => {
      const { db, watch } = database;
      const id = randomUUID();
      let before = watch.epoch;
      await db.selectFrom('users').select('id').execute();
      await sql`update projection_checkpoints set updated_at = now() where name = 'none'`.execute(db);
      expect(watch.epoch).toBe(before);

      await db
        .insertInto('users')
        .values({
          id,
          email: `${id}@watch.local`,
          full_name: 'W',
          role: 'USER',
          requires_password_change: false,
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      expect(watch.epoch).toBeGreaterThan(before);

      before = watch.epoch;
      let inside = 0;
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ full_name: 'W2' }).where('id', '=', id).execute();
        inside = watch.epoch;
      });
      expect(inside).toBeGreaterThan(before);
      // A read that began after the write but before the commit saw the old row: the commit moves the epoch again.
      expect(watch.epoch).toBeGreaterThan(inside);

      before = watch.epoch;
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', id).execute();
      });
      expect(watch.epoch).toBe(before);
    });
  });
});

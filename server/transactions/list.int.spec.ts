import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import type { NewEvent } from '../../ledger/event-store/port.js';
import { walletStream } from '../../ledger/wallet/events.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { replayProjection } from '../../projections/replay.js';
import { transactionsProjection } from '../../projections/transactions.js';
import { verifyReadModels } from '../../projections/verify.js';
import { visibleLegs } from '../../projections/transaction-requests.js';
import { backfill } from '../../migrations/0015_transaction_entry_counts.js';
import { entriesPage, entryView, transactionEntry, transactionsPageJson } from './list.js';

type PageAnswer = { transactions: ReturnType<typeof entryView>[]; count: number; page: number; pageSize: number };

interface Row {
  id: string;
  user_id: string;
  amount: string;
  note: string | null;
  request_id: string | null;
  is_hidden: boolean;
  sent_at: Date;
  created_at: Date;
}

const reqOf = (r: Row) => r.request_id ?? /\(Req ID: ([0-9a-f-]+)\)/.exec(r.note ?? '')?.[1] ?? null;

/** The list's rules written plainly: a pair is two visible legs sharing a request id, one spent, one received. */
function expected(rows: Row[], userId: string) {
  const visible = rows.filter((r) => r.user_id === userId && !r.is_hidden);
  const groups = new Map<string, Row[]>();
  for (const r of visible) if (reqOf(r)) groups.set(reqOf(r)!, [...(groups.get(reqOf(r)!) ?? []), r]);
  const pairOf = (r: Row) => {
    const g = reqOf(r) ? groups.get(reqOf(r)!)! : [];
    const spent = g.filter((x) => Number(x.amount) < 0);
    const received = g.filter((x) => Number(x.amount) > 0);
    return g.length === 2 && spent.length === 1 && received.length === 1 ? { spent: spent[0]!, received: received[0]! } : null;
  };
  const entries = visible
    .filter((r) => !(Number(r.amount) > 0 && pairOf(r)))
    .sort((a, b) => b.sent_at.getTime() - a.sent_at.getTime() || b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? -1 : 1))
    .map((r) => ({ id: r.id, linked: Number(r.amount) < 0 ? (pairOf(r)?.received.id ?? null) : null }));
  const pairs = [...groups.keys()].filter((req) => pairOf(groups.get(req)![0]!)).sort();
  return { entries, pairs, pairOf, visible };
}

describe('the transactions list page', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('pages and counts exactly as the pairing rules say while the projection opens rows and edits notes, batch by batch, and a replay counts the same', async () => {
    const db = database.db;
    const store = new PostgresEventStore(db);
    const user = randomUUID();
    const other = randomUUID();
    const rows = new Map<string, Row>();
    let pending: { userId: string; event: NewEvent }[] = [];
    const base = Date.parse('2026-11-01T00:00:00Z');
    let n = 0;
    const event = (userId: string, type: string, data: Record<string, unknown>) =>
      pending.push({
        userId,
        event: {
          eventId: randomUUID(),
          type,
          version: 1,
          data,
          metadata: {
            actorId: 'test',
            actorRole: 'SYSTEM',
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: new Date().toISOString(),
          },
        },
      });
    const add = (userId: string, amount: string, opts: { req?: string; note?: string; hidden?: boolean; at?: number } = {}) => {
      const sentAt = new Date(base + (opts.at ?? n++) * 60_000);
      const row: Row = {
        id: randomUUID(),
        user_id: userId,
        amount,
        note: opts.note ?? null,
        request_id: opts.req ?? null,
        is_hidden: opts.hidden ?? false,
        sent_at: sentAt,
        created_at: sentAt,
      };
      rows.set(row.id, row);
      event(userId, 'wallet.transaction-recorded', {
        transactionId: row.id,
        assetId: 'BTC',
        amount,
        fee: '0',
        sentAt: sentAt.toISOString(),
        note: row.note,
        senderAddress: null,
        recipientAddress: null,
        txid: null,
        isHidden: row.is_hidden,
        requestId: row.request_id,
        paymentMethodId: null,
        type: opts.req ? 'swap' : Number(amount) < 0 ? 'withdrawal' : 'deposit',
        status: 'Complete',
        reason: null,
      });
      return row.id;
    };
    const editNote = (id: string, note: string | null) => {
      const row = rows.get(id)!;
      row.note = note;
      event(row.user_id, 'wallet.transaction-edited', { transactionId: id, note });
    };
    const editType = (id: string) => event(rows.get(id)!.user_id, 'wallet.transaction-edited', { transactionId: id, type: 'adjustment' });
    const settle = (id: string) =>
      event(rows.get(id)!.user_id, 'wallet.transaction-settled', { transactionId: id, assetId: 'BTC', amount: rows.get(id)!.amount });
    const manual = (req: string) => `Manual swap (Req ID: ${req})`;

    /** Appends what the test wrote since the last stage, then projects it in batches of `batchSize`. */
    const project = async (batchSize: number) => {
      for (const { userId, event: e } of pending) await store.append(walletStream(userId), [e], { expectedRevision: 'any' });
      pending = [];
      await new ProjectionRunner(db, store, transactionsProjection, { batchSize }).catchUp();
    };

    const readTables = async () => ({
      counts: (await sql<Record<string, unknown>>`select * from transaction_entry_counts order by user_id`.execute(db)).rows,
      pairs: (await sql<Record<string, unknown>>`select * from transaction_swap_pairs order by user_id, req`.execute(db)).rows,
    });

    const check = async () => {
      const stored = await db.selectFrom('transactions').select(['id', 'created_at', 'note']).execute();
      for (const s of stored) {
        rows.get(s.id)!.created_at = new Date(s.created_at);
        expect(s.note).toBe(rows.get(s.id)!.note);
      }
      const all = [...rows.values()];
      const { pairs: tablePairs } = await readTables();
      for (const userId of [user, other]) {
        const want = expected(all, userId);
        expect(
          tablePairs
            .filter((p) => p.user_id === userId)
            .map((p) => p.req)
            .sort(),
        ).toEqual(want.pairs);
        for (const pageSize of [1, 2, 3, 7, 100]) {
          const got: { id: string; linked: string | null }[] = [];
          for (let page = 1; ; page++) {
            const answer = JSON.parse(await transactionsPageJson(db, userId, page, pageSize)) as PageAnswer;
            expect([answer.count, answer.page, answer.pageSize]).toEqual([want.entries.length, page, pageSize]);
            if (answer.transactions.length === 0) break;
            got.push(...answer.transactions.map((e) => ({ id: e.id, linked: e.linkedTransaction?.id ?? null })));
            // The list writes each entry exactly as the entry's own route does.
            if (pageSize === 100) {
              for (const e of answer.transactions) expect(e).toEqual(entryView((await transactionEntry(db, userId, e.id))!));
            }
          }
          expect(got).toEqual(want.entries);
        }
        for (const r of want.visible) {
          const pair = want.pairOf(r);
          const entry = await transactionEntry(db, userId, r.id);
          expect({ id: entry?.row.id, linked: entry?.linked?.id ?? null }).toEqual(
            pair ? { id: pair.spent.id, linked: pair.received.id } : { id: r.id, linked: null },
          );
        }
      }
      return expected(all, user);
    };

    // 1. Opened in batches of three: swaps by request id or note, hidden legs, triples, ties.
    for (let i = 0; i < 7; i++) add(user, i % 3 ? `${i + 1}` : `-${i + 1}`);
    const swap = randomUUID();
    add(user, '-1', { req: swap });
    add(user, '20', { req: swap });
    add(other, '-1', { req: swap }); // another customer's row with the same id does not count
    const staffPair = randomUUID();
    const staffSpent = add(user, '-5', { note: manual(staffPair) });
    add(user, '5', { note: manual(staffPair) });
    const triple = randomUUID();
    const tripleLegs = ['-1', '1', '1'].map((a) => add(user, a, { req: triple }));
    const halfHidden = randomUUID();
    const hiddenLeg = add(user, '-2', { req: halfHidden, hidden: true });
    add(user, '2', { req: halfHidden });
    const bothReceived = randomUUID();
    add(user, '1', { req: bothReceived });
    add(user, '1', { req: bothReceived });
    for (let i = 0; i < 3; i++) add(user, '3', { at: 2 }); // same sent_at: ordered by created_at, then id
    add(user, '9', { hidden: true });
    const plainSpent = add(user, '-3');
    const plainReceived = add(user, '4', { note: 'from a friend' });
    const groupA = randomUUID();
    const groupB = randomUUID();
    const movingLeg = add(user, '-6', { note: manual(groupA) });
    add(user, '6', { note: manual(groupA) });
    add(user, '8', { note: manual(groupB) });
    const lone = randomUUID();
    add(user, '9', { note: manual(lone) });
    await project(3);
    expect((await check()).entries.filter((e) => e.linked)).toHaveLength(3); // the swap, the staff pair, group A

    // 2. Edits one batch at a time: two plain rows become a pair, a pair is broken, and edits that change nothing.
    const newPair = randomUUID();
    editNote(plainSpent, manual(newPair));
    await project(1);
    await check();
    editNote(plainReceived, `from a friend ${manual(newPair)}`);
    editNote(staffSpent, 'Manual swap');
    editNote(tripleLegs[0]!, manual(randomUUID())); // the row's own request id wins over its note
    editNote(hiddenLeg, manual(randomUUID()));
    settle(plainSpent);
    editType(plainReceived);
    await project(1);
    expect((await check()).pairs).toEqual([swap, newPair, groupA].sort());

    // 3. One batch: a leg moves from group A to group B, a row opened and edited in the same
    // batch completes a pair, a note edited twice ends where it was, a third leg breaks the swap.
    editNote(movingLeg, manual(groupB));
    const late = add(user, '-9', { note: 'plain' });
    editNote(late, manual(lone));
    editNote(plainReceived, 'from a friend');
    editNote(plainReceived, `from a friend ${manual(newPair)}`);
    add(user, '1', { req: swap });
    await project(1000);
    expect((await check()).pairs).toEqual([newPair, groupB, lone].sort());

    // 4. The other customer's own pair under the same request id; a customer with only hidden rows.
    add(other, '5', { req: swap });
    add(randomUUID(), '1', { hidden: true });
    await project(2);
    await check();
    expect(expected([...rows.values()], other).pairs).toEqual([swap]);

    // A replay from scratch, in batches of any size, and the migration's backfill count the same.
    const live = await readTables();
    for (const batchSize of [1, 5000]) {
      await replayProjection(db, store, transactionsProjection, { batchSize });
      expect(await readTables()).toEqual(live);
    }
    await sql`truncate transaction_entry_counts, transaction_swap_pairs`.execute(db);
    await backfill(db);
    expect(await readTables()).toEqual(live);
    const report = await verifyReadModels(db, store, { projections: [transactionsProjection] });
    expect(report.ok).toBe(true);
    expect(report.projections[0]!.tables.map((t) => [t.table, t.liveRows])).toEqual([
      ['transactions', rows.size],
      ['transaction_entry_counts', 2],
      ['transaction_swap_pairs', 4],
    ]);
    await check();
  });

  it("finds a group's legs through the (user_id, request id) index", async () => {
    const plan = await database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<
        Record<string, string>
      >`explain select 1 from ${visibleLegs(sql`transactions`, 'u', sql`${randomUUID()}::uuid`, sql`${randomUUID()}::text`)}`.execute(trx);
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('transactions_user_req');
  });
});

/** Every node of an EXPLAIN (FORMAT JSON) plan, depth first. */
function planNodes(node: Record<string, unknown>): Record<string, unknown>[] {
  return [node, ...((node.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(planNodes)];
}

describe("the transactions page's plan", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("reads only the page's rows of a long history when the statistics say a customer has a few", async () => {
    const db = database.db;
    const insertRows = (userId: string, count: number) =>
      sql`
      insert into transactions (id, user_id, asset_id, amount, fee, type, status, sent_at, created_at, updated_at)
      select gen_random_uuid(), ${userId}::uuid, 'BTC', g, 0, 'deposit', 'Complete',
        timestamptz '2026-11-01T00:00:00Z' + g * interval '1 minute', now(), now()
      from generate_series(1, ${count}::int) g`.execute(db);
    // 300 customers of 3 rows: what the statistics know.
    for (let i = 0; i < 300; i++) await insertRows(randomUUID(), 3);
    await sql`analyze transactions`.execute(db);
    // Then one customer's history grows to 3,000 rows, which the statistics have not seen.
    const whale = randomUUID();
    await insertRows(whale, 3000);

    // The server runs the page as a named statement, planned once per connection (generic plan).
    const compiled = entriesPage(whale, 1, 10).compile(db);
    const args = compiled.parameters.map((p) => `'${String(p)}'`).join(', ');
    const plan = await db.connection().execute(async (conn) => {
      await sql.raw(`prepare page_plan as ${compiled.sql}`).execute(conn);
      try {
        await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
        const { rows } = await sql
          .raw<{ 'QUERY PLAN': unknown }>(`explain (analyze, format json) execute page_plan(${args})`)
          .execute(conn);
        const json = rows[0]!['QUERY PLAN'];
        return (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: Record<string, unknown> }[];
      } finally {
        await sql`deallocate page_plan`.execute(conn);
        await sql`reset plan_cache_mode`.execute(conn);
      }
    });
    const scans = planNodes(plan[0]!.Plan).filter((n) => n['Relation Name'] === 'transactions');
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) expect(scan['Actual Rows'] as number).toBeLessThan(50);

    const answer = JSON.parse(await transactionsPageJson(db, whale, 1, 10)) as PageAnswer;
    expect(answer.transactions.map((e) => e.amount)).toEqual(Array.from({ length: 10 }, (_, k) => String(3000 - k)));
  });
});

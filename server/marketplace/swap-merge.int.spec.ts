import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-database.js';
import { transactionEntries } from './swap-merge.js';

interface Row { id: string; user_id: string; amount: string; note: string | null; request_id: string | null; is_hidden: boolean; sent_at: Date; created_at: Date }

/** The list's rules written plainly: a pair is two visible legs sharing a request id, one spent, one received. */
function expected(rows: Row[], userId: string) {
  const visible = rows.filter((r) => r.user_id === userId && !r.is_hidden);
  const req = (r: Row) => r.request_id ?? /\(Req ID: ([0-9a-f-]+)\)/.exec(r.note ?? '')?.[1] ?? null;
  const groups = new Map<string, Row[]>();
  for (const r of visible) if (req(r)) groups.set(req(r)!, [...(groups.get(req(r)!) ?? []), r]);
  const pairOf = (r: Row) => {
    const g = req(r) ? groups.get(req(r)!)! : [];
    const spent = g.filter((x) => Number(x.amount) < 0);
    const received = g.filter((x) => Number(x.amount) > 0);
    return g.length === 2 && spent.length === 1 && received.length === 1 ? { spent: spent[0]!, received: received[0]! } : null;
  };
  return visible
    .filter((r) => !(Number(r.amount) > 0 && pairOf(r)))
    .sort((a, b) => b.sent_at.getTime() - a.sent_at.getTime() || b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? -1 : 1))
    .map((r) => ({ id: r.id, linked: Number(r.amount) < 0 ? (pairOf(r)?.received.id ?? null) : null }));
}

describe('the transactions list page', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('pages exactly as the pairing rules say, whatever the page size: swaps by request id or note, hidden legs, triples, ties', async () => {
    const user = randomUUID();
    const other = randomUUID();
    const rows: Row[] = [];
    const base = Date.parse('2026-11-01T00:00:00Z');
    let n = 0;
    const add = (userId: string, amount: string, opts: { req?: string; note?: string; hidden?: boolean; at?: number } = {}) => {
      const at = new Date(base + (opts.at ?? n++) * 60_000);
      rows.push({ id: randomUUID(), user_id: userId, amount, note: opts.note ?? null, request_id: opts.req ?? null, is_hidden: opts.hidden ?? false, sent_at: at, created_at: at });
    };
    for (let i = 0; i < 7; i++) add(user, i % 3 ? `${i + 1}` : `-${i + 1}`);
    const swap = randomUUID();
    add(user, '-1', { req: swap });
    add(user, '20', { req: swap });
    add(other, '-1', { req: swap }); // another customer's row with the same id does not count
    const staffPair = randomUUID();
    add(user, '-5', { note: `Manual swap (Req ID: ${staffPair})` });
    add(user, '5', { note: `Manual swap (Req ID: ${staffPair})` });
    const triple = randomUUID();
    for (const a of ['-1', '1', '1']) add(user, a, { req: triple });
    const halfHidden = randomUUID();
    add(user, '-2', { req: halfHidden, hidden: true });
    add(user, '2', { req: halfHidden });
    const bothReceived = randomUUID();
    add(user, '1', { req: bothReceived });
    add(user, '1', { req: bothReceived });
    for (let i = 0; i < 3; i++) add(user, '3', { at: 2 }); // same sent_at: ordered by created_at, then id
    add(user, '9', { hidden: true });

    await database.db
      .insertInto('transactions')
      .values(rows.map((r) => ({ ...r, asset_id: 'BTC', fee: '0', type: Number(r.amount) < 0 ? 'withdrawal' : 'deposit', status: 'Complete', updated_at: r.created_at })))
      .execute();

    const want = expected(rows, user);
    expect(want.filter((e) => e.linked)).toHaveLength(2); // the swap and the staff pair
    for (const pageSize of [1, 2, 3, 7, 100]) {
      const got: { id: string; linked: string | null }[] = [];
      for (let page = 1; ; page++) {
        const { entries, count } = await transactionEntries(database.db, user, page, pageSize);
        expect(count).toBe(want.length);
        if (entries.length === 0) break;
        got.push(...entries.map((e) => ({ id: e.row.id, linked: e.linked?.id ?? null })));
      }
      expect(got).toEqual(want);
    }
  });
});

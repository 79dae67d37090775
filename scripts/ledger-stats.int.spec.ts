import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';
import { openDatabase } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { formatPosition, type NewEvent, type Position } from '../ledger/event-store/port.js';
import { toNewEvents } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { decide, initialState } from '../ledger/wallet/wallet.js';
import { recorded } from '../ledger/wallet/wallet.arbitraries.js';

const cli = (args: string[]) => captureCli(args, { stdout: false });

const noted = (n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'test.noted',
  version: 1,
  data: { n },
  metadata: { actorId: 'test', actorRole: 'SYSTEM', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() },
});

describe('ledger stats: the event store in use and the lag behind it', () => {
  let workspace: CliWorkspace;
  let dataDir: string;
  let head: Position;
  beforeAll(async () => {
    workspace = await openCliWorkspace('ledger-stats-cli-', ['EVENTSTORE_URL']);
    dataDir = workspace.dataDir;
    // Two events the read models have not seen (nothing projects them: no app runs).
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
    try {
      await migrateToLatest(db.db);
      const store = new PostgresEventStore(db.db);
      await store.append(`test-${randomUUID()}`, [noted(1)], { expectedRevision: 'any' });
      head = (await store.append(`test-${randomUUID()}`, [noted(2)], { expectedRevision: 'any' })).position;
      await store.close();
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await workspace.close();
  });

  it("names the store, says it answers, and shows its head position and each projection's lag behind it", async () => {
    const json = await cli(['stats', '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.out);
    expect(out.eventStore).toEqual({
      name: 'postgres',
      reachable: true,
      head: formatPosition(head),
      live: { connected: true, resubscribing: false },
    });
    expect(out.projections.length).toBeGreaterThan(0);
    // Two events no read model reads: every read model is caught up (the count was 2 each).
    for (const p of out.projections) expect([p.name, p.lag]).toEqual([p.name, 0]);
    const text = await cli(['stats']);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`event store postgres: reachable, head ${formatPosition(head)}`);
    expect(text.out).toMatch(/^projection users: at 0\/0, 0 events applied, lag 0$/m);
  }, 60_000);

  it('counts as lag only the events a read model handles', async () => {
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
    try {
      const store = new PostgresEventStore(db.db);
      const stream = `wallet-${randomUUID()}`;
      const events = decide(recorded('1', 'Complete', 'BTC'), initialState());
      await store.append(stream, toNewEvents(walletDecider, stream, events, { actor: { id: 'test', role: 'SYSTEM' } }), {
        expectedRevision: 'no_stream',
      });
      await store.close();
    } finally {
      await db.close();
    }
    const lags = Object.fromEntries(
      JSON.parse((await cli(['stats', '--json'])).out).projections.map((p: { name: string; lag: number }) => [p.name, p.lag]),
    );
    expect(lags).toMatchObject({ balances: 1, transactions: 1, journal: 1, users: 0, tickets: 0 });
  }, 60_000);

  it('with an EventStoreDB that does not answer, prints its state line and exits 1', async () => {
    process.env.EVENTSTORE_URL = 'esdb://127.0.0.1:1?tls=false';
    try {
      const text = await cli(['stats']);
      expect(text.code).toBe(1);
      expect(text.out).toMatch(/^event store eventstoredb: unreachable \(.*UNAVAILABLE.*\), live subscription not open$/m);
      const json = await cli(['stats', '--json']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.out).eventStore).toMatchObject({
        name: 'eventstoredb',
        reachable: false,
        head: null,
        live: { connected: false, resubscribing: false },
      });
    } finally {
      delete process.env.EVENTSTORE_URL;
    }
  }, 60_000);
});

import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../tests/support/test-database.js';
import { openDatabase } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { formatPosition, type NewEvent, type Position } from '../ledger/event-store/port.js';
import { runCli } from './ledger.js';

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  try {
    return { code: await runCli(args), out: lines.join('\n') };
  } finally {
    log.mockRestore();
  }
}

const noted = (n: number): NewEvent => ({ eventId: randomUUID(), type: 'test.noted', version: 1, data: { n }, metadata: { actorId: 'test', actorRole: 'SYSTEM', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString() } });

describe('ledger stats: the event store in use and the lag behind it', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let head: Position;
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR, EVENTSTORE_URL: process.env.EVENTSTORE_URL };
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-stats-cli-'));
    process.env.DATA_DIR = dataDir;
    delete process.env.EVENTSTORE_URL;
    if (usingPostgres) {
      database = await createTestDatabase();
      await database.release();
      process.env.DATABASE_URL = database.url;
    }
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
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('names the store, says it answers, and shows its head position and each projection\'s lag behind it', async () => {
    const json = await cli(['stats', '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.out);
    expect(out.eventStore).toEqual({ name: 'postgres', reachable: true, head: formatPosition(head), live: { connected: true, resubscribing: false } });
    expect(out.projections.length).toBeGreaterThan(0);
    for (const p of out.projections) expect(p.lag).toBe(2);
    const text = await cli(['stats']);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`event store postgres: reachable, head ${formatPosition(head)}`);
    expect(text.out).toMatch(/^projection users: at 0\/0, 0 events applied, lag 2$/m);
  }, 60_000);

  it('with an EventStoreDB that does not answer, prints its state line and exits 1', async () => {
    process.env.EVENTSTORE_URL = 'esdb://127.0.0.1:1?tls=false';
    try {
      const text = await cli(['stats']);
      expect(text.code).toBe(1);
      expect(text.out).toMatch(/^event store eventstoredb: unreachable \(.*UNAVAILABLE.*\), live subscription not open$/m);
      const json = await cli(['stats', '--json']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.out).eventStore).toMatchObject({ name: 'eventstoredb', reachable: false, head: null, live: { connected: false, resubscribing: false } });
    } finally {
      delete process.env.EVENTSTORE_URL;
    }
  }, 60_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, usingPostgres } from './support/test-database.js';
import { openDatabase } from '../server/db/database.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { Projector } from '../projections/registry.js';
import { verifyReadModels } from '../projections/verify.js';

const root = path.resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startChild(env: Record<string, string>): { child: ChildProcess; acked: string[]; ready: Promise<void> } {
  // `node --import tsx`, not the tsx binary: that one forks, and SIGKILL would hit only its wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/crash-child.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acked: string[] = [];
  let buffer = '';
  let onReady!: () => void;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    child.once('exit', (code) => reject(new Error(`ledger process exited early with ${code}`)));
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line === 'ready') onReady();
      else if (line.startsWith('ack ')) acked.push(line.slice(4));
    }
  });
  return { child, acked, ready };
}

describe('crash and restart', () => {
  it('a ledger process killed with SIGKILL mid-work loses no acknowledged command and applies no event twice', async () => {
    // PostgreSQL: a database of its own; PGlite: a data directory on disk.
    const pgDatabase = usingPostgres ? await createTestDatabase() : null;
    const dataDir = usingPostgres ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-crash-'));
    const env: Record<string, string> = {
      CRASH_USERS: [randomUUID(), randomUUID(), randomUUID()].join(','),
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url! } : { DATA_DIR: dataDir!, DATABASE_URL: '' }),
    };
    await pgDatabase?.release(); // the child processes use it from here on
    const acked: string[] = [];
    try {
      for (let life = 0; life < 3; life++) {
        const run = startChild(env);
        await run.ready;
        // Kill it mid-work: once it has acknowledged a few commands (however busy the machine
        // is), then at a random moment within the next 0.8 s.
        for (const until = Date.now() + 15_000; run.acked.length < 4 && Date.now() < until;) await sleep(20);
        await sleep(Math.random() * 800);
        run.child.kill('SIGKILL');
        await new Promise((r) => run.child.once('exit', r));
        acked.push(...run.acked);
      }
      expect(acked.length).toBeGreaterThan(10);

      // After the last crash: a fresh process projects the rest by itself.
      const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir });
      try {
        const store = new PostgresEventStore(database.db);
        const projector = new Projector(database.projectionDb, store);
        await projector.start();
        const head = (await store.headPosition())!;
        expect(await projector.waitFor(head, 20_000)).toBe(true);
        await projector.stop();

        // Read each wallet's stream (not the global log, whose read horizon another test's open
        // transaction on the same server may hold back for a moment).
        const logged = new Set<string | undefined>();
        for (const user of env.CRASH_USERS!.split(',')) {
          for (const e of await store.readStream(`wallet-${user}`)) logged.add((e.data as { transactionId?: string }).transactionId);
        }
        const missing = acked.filter((id) => !logged.has(id));
        expect(missing).toEqual([]); // every acknowledged command is in the log
        const rows = await database.db.selectFrom('transactions').select('id').where('id', 'in', acked).execute();
        expect(rows).toHaveLength(acked.length); // ... and in the read table, once
        const report = await verifyReadModels(database.db, store);
        expect(report.ok, JSON.stringify(report, null, 1)).toBe(true);
      } finally {
        await database.close();
      }
    } finally {
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      await pgDatabase?.close();
    }
  }, 120_000);
});

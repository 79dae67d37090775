import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../tests/support/test-database.js';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database.js';
import { runCli } from './ledger.js';

/** One query on the database the CLI uses (closed again, so the embedded one is free for the CLI). */
async function sqlQuery<T>(text: string): Promise<{ rows: T[] }> {
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR! });
  try {
    return await sql<T>`${sql.raw(text)}`.execute(database.db);
  } finally {
    await database.close();
  }
}

/** Runs a CLI command and answers its exit code and what it printed on stdout. */
async function cli(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  try {
    return { code: await runCli(args), out: lines.join('\n') };
  } finally {
    log.mockRestore();
    write.mockRestore();
  }
}

describe('ledger CLI: finance commands', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-fin-cli-'));
    process.env.DATA_DIR = dataDir;
    if (usingPostgres) {
      // A database of its own, so that seeding touches nothing else.
      database = await createTestDatabase();
      await database.release();
      process.env.DATABASE_URL = database.url;
    }
  }, 120_000);
  afterAll(async () => {
    // Assigning undefined would leave the text "undefined" for the next test file in this process.
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('after a seed the trial balance sums to zero, reconciles with the read tables, is empty before any event, and verify checks the journal', async () => {
    expect((await cli(['seed', '--events', '400', '--json'])).code).toBe(0);
    const tb = await cli(['trial-balance', '--json']);
    expect(tb.code).toBe(0);
    const report = JSON.parse(tb.out);
    expect(report).toMatchObject({ ok: true, reconciles: true, walletEvents: 400, firstProblem: null });
    expect(report.readModels).toEqual([
      { table: 'balances', checked: true, differences: [] },
      { table: 'journal_entries', checked: true, differences: [] },
    ]);
    for (const line of report.lines) expect(line.total).toBe('0');

    const before = JSON.parse((await cli(['trial-balance', '--at', '2000-01-01', '--json'])).out);
    expect([before.walletEvents, before.lines]).toEqual([0, []]);

    const verify = await cli(['verify', '--json']);
    expect(JSON.parse(verify.out).journal).toMatchObject({ ok: true, events: 400 });
    expect(verify.code).toBe(0);
  }, 300_000);

  it('every finance command has --help, and bad options are refused with a clear message', async () => {
    for (const command of ['trial-balance', 'balance', 'statement']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.out).toContain(`Usage: npm run ledger -- ${command}`);
    }
    await expect(runCli(['balance', '--user', 'x', '--at', 'soon'])).rejects.toThrow(
      '--at must be an ISO time like 2026-03-01T12:00:00Z or a date like 2026-03-01.',
    );
    await expect(runCli(['statement', '--user', 'x'])).rejects.toThrow('--from and --to are required.');
    // A balance is at one moment that has happened: not a later one, not a period.
    await expect(runCli(['balance', '--user', 'x', '--at', '2999-01-01'])).rejects.toThrow(
      '--at 2999-01-01 is in the future; give a moment up to now.',
    );
    await expect(runCli(['balance', '--user', 'x', '--at', '2026-01-01', '--from', '2026-01-01', '--to', '2026-01-31'])).rejects.toThrow(
      'balance takes --at (one moment), not --from or --to; for a period use statement.',
    );
  });

  it('refuses a statement of a staff account', async () => {
    const created = await cli(['create-staff', '--role', 'WORKER', '--email', 'teller@example.com', '--name', 'Tess Teller', '--json']);
    expect(created.code).toBe(0);
    await expect(runCli(['statement', '--user', 'teller@example.com', '--from', '2026-01-01', '--to', '2026-01-31'])).rejects.toThrow(
      'teller@example.com is a staff account (WORKER); a statement is for a customer.',
    );
  });

  it('refuses a day the calendar does not have instead of rolling it into the next month, and reads a time without a zone as UTC', async () => {
    // Date.parse turns 2026-02-29 into 2026-03-01 and 2026-04-31 into 2026-05-01.
    await expect(runCli(['balance', '--user', 'x', '--at', '2026-02-29'])).rejects.toThrow(
      '--at: 2026-02-29 is not a day of the calendar.',
    );
    await expect(runCli(['statement', '--user', 'x', '--from', '2026-04-01', '--to', '2026-04-31'])).rejects.toThrow(
      '--to: 2026-04-31 is not a day of the calendar.',
    );
    await expect(runCli(['trial-balance', '--at', '2026-02-30T12:00:00Z'])).rejects.toThrow(
      '--at: 2026-02-30 is not a day of the calendar.',
    );
    // 2024 is a leap year: its 29 February passes the check (and the unknown id is refused next).
    const id = randomUUID();
    await expect(runCli(['balance', '--user', id, '--at', '2024-02-29T12:00:00'])).rejects.toThrow(
      `No user and no wallet with the id ${id}.`,
    );
  });

  it('refuses a user id that is neither an account nor a wallet, and still answers for a seeded wallet without an account', async () => {
    const id = randomUUID();
    await expect(runCli(['balance', '--user', id])).rejects.toThrow(`No user and no wallet with the id ${id}.`);
    await expect(runCli(['statement', '--user', id, '--from', '2026-01-01', '--to', '2026-12-31'])).rejects.toThrow(
      `No user and no wallet with the id ${id}.`,
    );
    const { rows } = await sqlQuery<{ id: string }>(
      "select substr(stream_id, 8) as id from events where stream_id like 'wallet-%' limit 1",
    );
    const seeded = rows[0]!.id;
    const now = new Date().toISOString();
    const balance = await cli(['balance', '--user', seeded.toUpperCase(), '--at', now, '--json']);
    expect(balance.code).toBe(0);
    expect(JSON.parse(balance.out)).toMatchObject({ userId: seeded, at: now });
    expect(JSON.parse(balance.out).assets.length).toBeGreaterThan(0);
    // The statement's CSV (what customers download) keeps signed amounts as numbers and lets no cell start a formula.
    const csv = await cli(['statement', '--user', seeded, '--from', '2000-01-01', '--to', '2999-12-31', '--csv']);
    expect(csv.code).toBe(0);
    const lines = csv.out.trim().split('\r\n');
    expect(lines[0]).toBe('section,booking_date,value_date,asset,transaction_id,type,description,reference,counterparty,amount,balance');
    expect(lines.some((r) => /,-\d+(\.\d+)?,/.test(r))).toBe(true);
    for (const r of lines) expect(r.split(',').filter((cell) => /^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/.test(cell))).toEqual([]);
  });
});

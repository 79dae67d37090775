import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '../tests/support/test-database.js';
import { migrateToLatest, migrationStatus } from '../migrations/index.js';
import { runCli } from './ledger.js';

describe('migration status', () => {
  it('lists pending migrations on a new database, applies none, and lists them applied after migrate', async () => {
    const database = await createTestDatabase({ migrate: false });
    try {
      const before = await migrationStatus(database.db);
      expect(before.applied).toEqual([]);
      expect(before.pending[0]).toBe('0001_event_store');
      expect(before.pending.length).toBeGreaterThan(10);
      // Asking changed nothing: still all pending.
      expect((await migrationStatus(database.db)).pending).toEqual(before.pending);
      await migrateToLatest(database.db);
      const after = await migrationStatus(database.db);
      expect(after.pending).toEqual([]);
      expect(after.applied.map((m) => m.name)).toEqual(before.pending);
      expect(after.applied[0]!.executedAt).toBeInstanceOf(Date);
    } finally {
      await database.close();
    }
  });

  it('`ledger migrate --status` prints each migration as applied or pending', async () => {
    const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-migrate-'));
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      expect(await runCli(['migrate', '--status'])).toBe(0);
      expect(lines[0]).toBe('pending  0001_event_store');
      expect(lines.at(-1)).toMatch(/^0 applied, \d+ pending\.$/);
      lines.length = 0;
      expect(await runCli(['migrate'])).toBe(0);
      lines.length = 0;
      expect(await runCli(['migrate', '--status'])).toBe(0);
      expect(lines[0]).toMatch(/^applied {2}0001_event_store {2}\d{4}-\d\d-\d\dT/);
      expect(lines.at(-1)).toMatch(/^\d+ applied, 0 pending\.$/);
    } finally {
      log.mockRestore();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { migrateToLatest } from '../../migrations/index.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import { Projector } from '../../projections/registry.js';
import { CommandHandler, SYSTEM_ACTOR } from '../../ledger/command-handler.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { recorded, withdrawal } from '../../ledger/wallet/wallet.arbitraries.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The operator CLI as an operator runs it, on the embedded database in `dataDir`. */
async function ledger(dataDir: string, ...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/ledger.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, BACKUP_PASSPHRASE: 'long suite passphrase' },
    });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout + e.stderr };
  }
}

/** Appends `n` deposits and withdrawals to a few wallets and projects them. */
async function write(dataDir: string, n: number): Promise<number> {
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db);
    const store = new PostgresEventStore(database.db);
    const projector = new Projector(database.projectionDb, store);
    await projector.start();
    const handler = new CommandHandler(store);
    for (let i = 0; i < n; i++) {
      const wallet = `00000000-0000-4000-8000-00000000000${i % 3}`;
      await handler.handle(walletDecider, wallet, recorded('2'), { actor: SYSTEM_ACTOR });
      await handler.handle(walletDecider, wallet, withdrawal('1'), { actor: SYSTEM_ACTOR });
    }
    const head = (await store.headPosition())!;
    expect(await projector.waitFor(head, 30_000)).toBe(true);
    await projector.stop();
    return Number(
      (
        await database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  } finally {
    await database.close();
  }
}

describe('backup and restore of the embedded database (long)', () => {
  it('restores a backup, in place and into a new folder, and the restored ledger verifies', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-backup-'));
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-restored-'));
    const file = path.join(dataDir, 'backups', 'test.tar.gz');
    try {
      const eventsAtBackup = await write(dataDir, 30);
      const backup = await ledger(dataDir, 'backup', '--out', file, '--json');
      expect(backup.code, backup.stdout).toBe(0);
      expect(JSON.parse(backup.stdout)).toMatchObject({ file, events: eventsAtBackup });
      expect(fs.statSync(file).size).toBeGreaterThan(1000);

      // Life goes on after the backup; then the operator restores it.
      expect(await write(dataDir, 10)).toBeGreaterThan(eventsAtBackup);
      const refused = await ledger(dataDir, 'restore', '--from', file);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toMatch(/already holds a database\. Pass --force/);
      const restored = await ledger(dataDir, 'restore', '--from', file, '--force', '--json');
      expect(restored.code, restored.stdout).toBe(0);
      expect(JSON.parse(restored.stdout)).toMatchObject({ events: eventsAtBackup });
      expect(fs.existsSync(JSON.parse(restored.stdout).keptAside)).toBe(true);
      const verify = await ledger(dataDir, 'verify');
      expect(verify.code, verify.stdout).toBe(0);
      expect(verify.stdout).toContain('verify: the read tables match the event log.');

      // Onto another machine's empty folder.
      const fresh = await ledger(elsewhere, 'restore', '--from', file, '--json');
      expect(fresh.code, fresh.stdout).toBe(0);
      expect((await ledger(elsewhere, 'verify')).code).toBe(0);
      const stats = JSON.parse((await ledger(elsewhere, 'stats', '--json')).stdout);
      expect(stats.events).toBe(eventsAtBackup);

      // A file that is not a backup changes nothing.
      const junk = path.join(dataDir, 'junk.tar.gz');
      fs.writeFileSync(junk, 'not a backup');
      expect((await ledger(dataDir, 'restore', '--from', junk, '--force')).code).toBe(2);
      expect((await ledger(dataDir, 'verify')).code).toBe(0);
      console.log(`backup: ${eventsAtBackup} events, ${fs.statSync(file).size} bytes; restored in place and elsewhere; verify passed`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

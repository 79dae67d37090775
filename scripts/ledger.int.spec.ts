import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './ledger.js';

/** Runs a CLI command with its stdout muted and answers its exit code. */
async function cli(args: string[]): Promise<number> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    return await runCli(args);
  } finally {
    log.mockRestore();
  }
}

describe('ledger CLI: usage and backup', () => {
  let dataDir: string;
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
  beforeAll(() => {
    // Backups are of the embedded database: this file uses one of its own in a temp folder.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-cli-'));
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses arguments a command does not take instead of ignoring them', async () => {
    await expect(runCli(['stats', 'extra'])).rejects.toThrow(
      'Unexpected argument "extra" for stats. Run `npm run ledger -- stats --help`.',
    );
    await expect(runCli(['replay', 'journal', 'balances'])).rejects.toThrow('Unexpected argument "balances" for replay.');
    await expect(runCli(['verify', 'now'])).rejects.toThrow('Unexpected argument "now" for verify.');
  });

  it('refuses a backup file it cannot write with one line, before taking the copy, and writes into new folders', async () => {
    expect(await cli(['migrate', '--json'])).toBe(0);
    const file = path.join(dataDir, 'not-a-folder');
    fs.writeFileSync(file, '');
    // No passphrase for the keys and no --without-keys: refused before anything else.
    const passphrase = process.env.BACKUP_PASSPHRASE;
    delete process.env.BACKUP_PASSPHRASE;
    await expect(runCli(['backup', '--out', path.join(dataDir, 'b.backup')])).rejects.toThrow(
      /Set BACKUP_PASSPHRASE to include them, encrypted, or pass --without-keys/,
    );
    if (passphrase !== undefined) process.env.BACKUP_PASSPHRASE = passphrase;
    expect(fs.existsSync(path.join(dataDir, 'b.backup'))).toBe(false);
    // Was an EEXIST stack from mkdirSync after the copy was taken (and a hang for a path under /proc).
    await expect(runCli(['backup', '--without-keys', '--out', path.join(file, 'b.tar.gz')])).rejects.toThrow(
      `Cannot write the backup to ${path.join(file, 'b.tar.gz')}: ${file} is not a folder`,
    );
    expect(fs.existsSync(path.join(dataDir, 'ledger.lock'))).toBe(false);
    const out = path.join(dataDir, 'new', 'deeper', 'b.tar.gz');
    expect(await cli(['backup', '--without-keys', '--out', out, '--json'])).toBe(0);
    expect(fs.statSync(out).size).toBeGreaterThan(0);
    await expect(runCli(['restore', '--from', out])).rejects.toThrow(
      'already holds a database. Pass --force to keep it aside and restore over it.',
    );
  }, 120_000);
});

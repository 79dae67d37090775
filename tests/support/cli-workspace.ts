import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
import { runCli } from '../../scripts/ledger.js';
import { createTestDatabase, usingPostgres, type TestDatabase } from './test-database.js';

/**
 * Runs the operator CLI in this process and answers its exit code and what it printed
 * (console.log lines, and with `stdout` also what it wrote to stdout directly: tables, CSV).
 */
export async function captureCli(args: string[], opts: { stdout?: boolean } = { stdout: true }): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const write = opts.stdout
    ? vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true))
    : null;
  try {
    return { code: await runCli(args), out: lines.join('\n') };
  } finally {
    log.mockRestore();
    write?.mockRestore();
  }
}

export interface CliWorkspace {
  dataDir: string;
  /** Puts the environment back, drops the database and removes the data folder. */
  close(): Promise<void>;
}

/**
 * What a CLI spec runs in: a data folder of its own as DATA_DIR and, on PostgreSQL, a database of
 * its own as DATABASE_URL (released, so the CLI opens it as an operator would). The variables in
 * `unset` are cleared for the spec; all are put back by close().
 */
export async function openCliWorkspace(prefix: string, unset: string[] = []): Promise<CliWorkspace> {
  const names = ['DATABASE_URL', 'DATA_DIR', ...unset];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.env.DATA_DIR = dataDir;
  for (const n of unset) delete process.env[n];
  let database: TestDatabase | undefined;
  if (usingPostgres) {
    database = await createTestDatabase();
    await database.release();
    process.env.DATABASE_URL = database.url;
  }
  return {
    dataDir,
    close: async () => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await database?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

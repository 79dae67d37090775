import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'build', 'scripts', 'ledger.js');

/** `npm run ledger -- ...` as an operator runs it: a process of its own, from the compiled JavaScript. */
async function ledger(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(root, 'scripts', 'ledger-run.mjs'), ...args], {
      cwd: root,
      env: process.env,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('npm run ledger: the CLI from compiled JavaScript', () => {
  let workspace: CliWorkspace;
  beforeAll(async () => {
    workspace = await openCliWorkspace('ledger-run-', ['EVENTSTORE_URL']);
  }, 120_000);
  afterAll(async () => {
    await workspace.close();
  });

  it('builds build/scripts/ledger.js when a source is newer, then runs it as it is', async () => {
    const help = await ledger(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: npm run ledger -- <command> [options]');
    const builtAt = fs.statSync(built).mtimeMs;
    expect(builtAt).toBeGreaterThanOrEqual(fs.statSync(path.join(root, 'scripts', 'ledger.ts')).mtimeMs);
    expect((await ledger(['statement', '--help'])).code).toBe(0);
    expect(fs.statSync(built).mtimeMs).toBe(builtAt);
  }, 120_000);

  it('refuses with one line on stderr and exit 2: a future --at, --at with a period, a period that is not a month', async () => {
    for (const [args, line] of [
      [['balance', '--user', 'x', '--at', '2999-01-01'], '--at 2999-01-01 is in the future; give a moment up to now.'],
      [
        ['balance', '--user', 'x', '--at', '2026-01-01', '--from', '2026-01-01'],
        'balance takes --at (one moment), not --from or --to; for a period use statement.',
      ],
      [['close', '--period', 'January'], '--period must be a month like 2026-01, not "January".'],
    ] as const) {
      const r = await ledger([...args]);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `${line}\n`]);
    }
  }, 60_000);

  it('stats on an idle ledger shows every read model with lag 0', async () => {
    const r = await ledger(['stats', '--json']);
    expect(r.code).toBe(0);
    for (const p of JSON.parse(r.stdout).projections) expect([p.name, p.lag]).toEqual([p.name, 0]);
  }, 120_000);
});

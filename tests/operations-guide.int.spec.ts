import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from './support/cli-workspace.js';
import { usingPostgres } from './support/test-database.js';

/**
 * Every operator command docs/operations.md gives (`npm run ledger -- …`) is run here as it is
 * written, on this run's database, in the order an operator meets them, and what the guide says
 * it prints is checked against what it printed. The PostgreSQL pass runs the PostgreSQL commands
 * (a shadow replay), the embedded pass the embedded ones (backup and restore). The shell tools
 * around them (pg_dump, pg_restore, openssl, docker) are the operator's; the compose file is
 * checked in tests/compose.unit.spec.ts.
 */
const guide = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'operations.md'), 'utf8');

/** The arguments of each `npm run ledger -- …` in the guide, as written (quotes removed, comments and elisions cut). */
function guideCommands(): string[][] {
  const found = new Map<string, string[]>();
  for (const m of guide.matchAll(/npm run ledger -- ([^\n`]+)/g)) {
    const text = m[1]!
      .replace(/\s+#.*$/, '')
      .replace(/\)$/, '')
      .trim();
    const args = [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((a) => a[1] ?? a[2] ?? a[3]!).filter((a) => a !== '…');
    found.set(args.join(' '), args);
  }
  return [...found.values()];
}

/** How each command of the guide is run here: its file arguments pointed at this run's folder. */
function runnable(args: string[], dir: string): string[] {
  return args.map((a) => (a.startsWith('/backups/') ? path.join(dir, path.basename(a)) : a === 'NAME' ? 'balances' : a));
}

let workspace: CliWorkspace;
let dir: string;
const saved = process.env.BACKUP_PASSPHRASE;

beforeAll(async () => {
  workspace = await openCliWorkspace('ledger-guide-');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-guide-files-'));
  // The guide's own passphrase, as its backup and restore lines set it.
  process.env.BACKUP_PASSPHRASE = /BACKUP_PASSPHRASE='([^'…]+)'/.exec(guide)![1]!;
}, 120_000);

afterAll(async () => {
  if (saved === undefined) delete process.env.BACKUP_PASSPHRASE;
  else process.env.BACKUP_PASSPHRASE = saved;
  await workspace.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the commands of docs/operations.md', () => {
  const commands = guideCommands();
  /** The guide's fullest form of `first` with exactly the options `rest`, or the fullest form of `first`. */
  const named = (first: string, ...rest: string[]) => {
    const forms = commands.filter((c) => c[0] === first).sort((a, b) => b.length - a.length);
    return rest.length || forms.length === 1 ? forms.find((c) => rest.every((r) => c.includes(r)))! : forms.find((c) => c.length === 1)!;
  };

  it('are the ones run below', () => {
    const covered = ['migrate', 'stats', 'verify', 'create-staff', 'replay', 'backup', 'restore'];
    expect(commands.map((c) => c[0]).filter((c) => !covered.includes(c!))).toEqual([]);
    expect(commands.length).toBeGreaterThanOrEqual(8);
  });

  it('migrate applies what is pending, then: "The database is up to date."', async () => {
    const first = await captureCli(named('migrate'));
    expect(first.code).toBe(0);
    // A new embedded database has none applied; a PostgreSQL one of this run has them all.
    expect(first.out.trim()).toMatch(/^(Applied 0001_event_store, .*\.|The database is up to date\.)$/);
    const { code, out } = await captureCli(named('migrate'));
    expect(code).toBe(0);
    expect(out.trim()).toBe('The database is up to date.');
  }, 120_000);

  it('migrate --status prints what the guide shows', async () => {
    const { code, out } = await captureCli(named('migrate', '--status'));
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    const sample = /npm run ledger -- migrate --status`[\s\S]*?```\n([\s\S]*?)```/.exec(guide)![1]!.trim().split('\n');
    for (const line of lines.slice(0, -1))
      expect(line).toMatch(/^(applied {2}\d{4}_\w+ {2}\d{4}-\d\d-\d\dT[\d:.]+Z|pending {2}\d{4}_\w+)$/);
    // The sample's migration names are the real ones, and its last line is the real count.
    for (const line of sample.filter((l) => l.startsWith('applied'))) expect(out).toContain(line.split(/\s+/)[1]);
    const applied = lines.filter((l) => l.startsWith('applied')).length;
    expect(lines.at(-1)).toBe(`${applied} applied, ${lines.length - 1 - applied} pending.`);
    expect(sample.at(-1)).toMatch(/^\d+ applied, \d+ pending\.$/);
  }, 120_000);

  it('create-staff makes the first admin with a one-time password', async () => {
    const args = named('create-staff', '--role', 'ADMIN');
    expect(args).toEqual(['create-staff', '--role', 'ADMIN', '--email', expect.stringContaining('@'), '--name', expect.any(String)]);
    const { code, out } = await captureCli(args);
    expect(code).toBe(0);
    expect(out).toMatch(
      /^Created ADMIN \S+@\S+ \([0-9a-f-]{36}\)\.\nOne-time password \(shown only now; it must be changed at first sign-in\): \S{12,}/,
    );
  }, 120_000);

  it('stats and verify answer as the guide says', async () => {
    const stats = await captureCli(named('stats'));
    expect(stats.code).toBe(0);
    expect(stats.out).toMatch(/^event store postgres: reachable, head /m);
    const verify = await captureCli(named('verify'));
    expect(verify.code).toBe(0);
  }, 240_000);

  it.skipIf(!usingPostgres)(
    'replay NAME --shadow rebuilds a read model beside the live one (PostgreSQL)',
    async () => {
      const { code } = await captureCli(runnable(named('replay'), dir));
      expect(code).toBe(0);
    },
    240_000,
  );

  it.skipIf(usingPostgres)(
    'backup, then restore into an empty DATA_DIR, then verify (embedded database)',
    async () => {
      const backup = runnable(named('backup'), dir);
      expect(backup).toContain('--out');
      expect((await captureCli(backup)).code).toBe(0);
      const previous = process.env.DATA_DIR;
      process.env.DATA_DIR = fs.mkdtempSync(path.join(dir, 'new-machine-'));
      try {
        expect((await captureCli(runnable(named('restore'), dir))).code).toBe(0);
        expect((await captureCli(named('verify'))).code).toBe(0);
      } finally {
        process.env.DATA_DIR = previous;
      }
    },
    240_000,
  );
});

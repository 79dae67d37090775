import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
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

const pooled = Boolean(process.env.PGBOUNCER_DATABASE_URL) && process.env.DATABASE_URL === process.env.PGBOUNCER_DATABASE_URL;

// The guide's PostgreSQL backup and restore, run as its shell blocks are written (PostgreSQL
// directly, as it says; not in the pass through PgBouncer). What this run must fill in: the
// URLs and database name it elides, and openssl's passphrase, which the guide leaves to a prompt.
describe.skipIf(!usingPostgres || pooled)('the PostgreSQL backup and restore of docs/operations.md', () => {
  it('dumps, restores into a new database, puts the keys back, and the ledger answers as before', async () => {
    const section = guide.slice(guide.indexOf('### PostgreSQL (`DATABASE_URL`)'), guide.indexOf('## Behind PgBouncer'));
    const [backupBlock, restoreBlock] = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(restoreBlock).toBeDefined();
    const source = process.env.DATABASE_URL!;
    const target = new URL(source);
    const targetName = `${target.pathname.slice(1)}_restored`;
    target.pathname = `/${targetName}`;
    const admin = new URL(source);
    admin.pathname = '/postgres';
    const placeholder = "'postgres://ledger:…@db.internal:5432/ledger'";
    const ledgerCli = `npm --prefix ${JSON.stringify(path.resolve(import.meta.dirname, '..'))} run --silent ledger --`;
    const fill = (block: string, url: string) =>
      block
        .replaceAll(placeholder, `'${url}'`)
        .replaceAll('openssl enc ', 'openssl enc -pass env:KEYS_PASSPHRASE ')
        .replace(
          'createdb --owner=ledger ledger',
          `createdb --maintenance-db='${admin}' --owner=${decodeURIComponent(target.username)} ${targetName}`,
        )
        .replace('alter database ledger ', `alter database ${targetName} `)
        .replaceAll('DATABASE_URL=…', `DATABASE_URL='${target}'`)
        .replaceAll('npm run ledger --', ledgerCli);
    expect(backupBlock).toContain(placeholder);
    const { out: before } = await captureCli(['stats', '--json']);
    const eventsBefore = (JSON.parse(before) as { events: number }).events;
    expect(eventsBefore).toBeGreaterThan(0);

    const work = fs.mkdtempSync(path.join(dir, 'pg-'));
    const dataDir = fs.mkdtempSync(path.join(dir, 'keys-'));
    const keys = JSON.stringify({ jwtSecret: 'a'.repeat(64), dataEncryptionKey: 'b'.repeat(64) });
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), keys, { mode: 0o600 });
    const sh = (script: string) => {
      const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: work,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, KEYS_PASSPHRASE: 'kept in the password manager' },
        encoding: 'utf8',
        timeout: 300_000,
      });
      expect(r.status, `${script}\n${r.stdout}\n${r.stderr}`).toBe(0);
      return r.stdout;
    };
    try {
      sh(fill(backupBlock!, source));
      expect(fs.statSync(path.join(work, 'ledger-2026-11-27.dump')).size).toBeGreaterThan(0);
      // A new machine: the keys are only in the sealed copy.
      fs.rmSync(path.join(dataDir, 'secrets.json'));
      const out = sh(fill(restoreBlock!, target.toString()));
      expect(out).toContain('The database is up to date.');
      expect(out).toMatch(new RegExp(`^events ${eventsBefore.toLocaleString('en-US')}, `, 'm'));
      expect(out).toMatch(/^event store postgres: reachable, head /m);
      expect(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).toBe(keys);
      expect(fs.statSync(path.join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);
      const cost = sh(`psql '${target}' -Atc 'show random_page_cost'`);
      expect(cost.trim()).toBe('1.1');
    } finally {
      spawnSync('dropdb', ['--if-exists', `--maintenance-db=${admin}`, '--force', targetName]);
    }
  }, 600_000);
});

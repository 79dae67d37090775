import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { preflight } from './preflight.js';
import { openEventStore } from './context.js';
import type { Database } from './db/database.js';
import { checkPassphrase, KeysError } from '../scripts/backup-keys.js';

/**
 * Every variable of the README's configuration table (the list docs/operations.md points to), and
 * the few its own table adds: each is walked with values that must be refused at start, in one
 * line naming it, and a value that must start. The start-up checks run in-process (what main.ts
 * runs before it opens anything); the built server is spawned for the cases an operator met as a
 * stack (a port in use, a host of another machine, an unparsable DATABASE_URL).
 */
const ROOT = path.resolve(import.meta.dirname, '..');

/** The names in the first cell of each row of the table under `heading` in `file`. */
function tableVariables(file: string, heading: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${file} has a "${heading}" section`).toBeGreaterThan(0);
  const end = text.indexOf('\n## ', start + heading.length + 2);
  const names = new Set<string>();
  for (const line of text.slice(start, end === -1 ? undefined : end).split('\n')) {
    const first = /^\| ([^|]+)\|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]!);
  }
  return [...names];
}

// PostgreSQL directly (not through PgBouncer, which scripts/test.sh's third pass puts in DATABASE_URL).
const pooler = process.env.PGBOUNCER_DATABASE_URL;
const direct = process.env.DATABASE_URL && process.env.DATABASE_URL !== pooler ? process.env.DATABASE_URL : undefined;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'j'.repeat(40),
  DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
  PUBLIC_URL: 'https://wallet.example.com',
  MAIL_OUTBOX: 'true',
};

let dataDir: string;
let aFile: string;
let busyPort: number;
let smtpPort: number;
const servers: net.Server[] = [];

/** A server listening on a free port of 127.0.0.1, closed after the suite. */
async function listening(handler?: (socket: net.Socket) => void): Promise<number> {
  const server = net.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

/** Just enough of an SMTP server for nodemailer's `verify`: greeting, EHLO, QUIT. */
function smtpPeer(socket: net.Socket): void {
  socket.write('220 mail.test ESMTP\r\n');
  socket.on('data', (data) => {
    for (const line of data.toString().split('\r\n').filter(Boolean)) {
      if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
      else socket.write(/^(EHLO|HELO)/i.test(line) ? '250 mail.test\r\n' : '250 ok\r\n');
    }
  });
  socket.on('error', () => {});
}

/** What main.ts does before it serves: the values, then the environment they name. */
async function startUp(env: Record<string, string>): Promise<void> {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...env });
  await preflight(config);
  // EventStoreDB is read from at start by buildApp, after the database: its URL as the client reads it.
  if (config.EVENTSTORE_URL) await (await openEventStore(config, {} as Database)).close();
}

/** The refusal `env` meets at start: asserted to be one line naming `name`. */
async function refusedAtStart(name: string, env: Record<string, string>): Promise<string> {
  const err = await startUp(env).then(
    () => new Error(`${name}: accepted ${JSON.stringify(env)}`),
    (e: unknown) => e,
  );
  expect(err, JSON.stringify(env)).toBeInstanceOf(ConfigError);
  const message = (err as Error).message;
  expect(message.split('\n'), message).toHaveLength(1);
  expect(message).toMatch(new RegExp(`^Invalid configuration: ${name}: \\S`));
  return message;
}

type Case = { bad: Array<Record<string, string>>; good: Array<Record<string, string>> };

/** For each variable: values refused at start (naming it), and values that start. */
function cases(): Record<string, Case> {
  return {
    PORT: { bad: [{ PORT: 'eighty' }, { PORT: '70000' }, { PORT: String(busyPort) }], good: [{ PORT: '0' }] },
    HOST: {
      bad: [{ HOST: 'not a host!' }, { HOST: 'nosuch.invalid' }, { HOST: '192.0.2.1' }],
      good: [{ HOST: '127.0.0.1' }, { HOST: 'localhost' }, { HOST: '0.0.0.0' }],
    },
    DATABASE_URL: {
      bad: [
        { DATABASE_URL: 'postgres://::::' },
        { DATABASE_URL: 'mysql://db:3306/ledger' },
        { DATABASE_URL: 'postgres://ledger:s3cret@127.0.0.1:1/ledger' },
      ],
      good: direct ? [{ DATABASE_URL: direct }] : [],
    },
    DATA_DIR: { bad: [{ DATA_DIR: '/proc/ledger' }, { DATA_DIR: aFile }], good: [{ DATA_DIR: dataDir }] },
    EVENTSTORE_URL: {
      bad: [
        { EVENTSTORE_URL: 'http://eventstore:2113' },
        { EVENTSTORE_URL: 'esdb://host:abc' },
        { EVENTSTORE_URL: 'esdb://host:2113?tls=maybe' },
      ],
      // Nothing listens there: documented to start, with /readyz 503 naming the store (server/routes/health/health.int.spec.ts).
      good: [{ EVENTSTORE_URL: 'esdb://127.0.0.1:1?tls=false' }],
    },
    PROJECTION_WAIT_MS: { bad: [{ PROJECTION_WAIT_MS: '5s' }, { PROJECTION_WAIT_MS: '-1' }], good: [{ PROJECTION_WAIT_MS: '1000' }] },
    SNAPSHOT_EVERY: {
      bad: [{ SNAPSHOT_EVERY: '-1' }, { SNAPSHOT_EVERY: 'often' }],
      good: [{ SNAPSHOT_EVERY: '0' }, { SNAPSHOT_EVERY: '100' }],
    },
    DB_POOL_SIZE: { bad: [{ DB_POOL_SIZE: '0' }, { DB_POOL_SIZE: '1000' }], good: [{ DB_POOL_SIZE: '8' }] },
    DB_PREPARED_STATEMENTS: {
      bad: [{ DB_PREPARED_STATEMENTS: 'yes' }, ...(pooler ? [{ DATABASE_URL: pooler, DB_PREPARED_STATEMENTS: 'true' }] : [])],
      good: [
        { DB_PREPARED_STATEMENTS: 'false' },
        ...(direct ? [{ DATABASE_URL: direct, DB_PREPARED_STATEMENTS: 'true' }] : []),
        ...(pooler ? [{ DATABASE_URL: pooler, DB_PREPARED_STATEMENTS: 'false' }] : []),
      ],
    },
    DB_CHECKOUT_TIMEOUT_MS: { bad: [{ DB_CHECKOUT_TIMEOUT_MS: '10' }], good: [{ DB_CHECKOUT_TIMEOUT_MS: '2000' }] },
    HEAP_GROWING_PERCENT: { bad: [{ HEAP_GROWING_PERCENT: '500' }], good: [{ HEAP_GROWING_PERCENT: '0' }] },
    PUBLIC_URL: {
      bad: [{ PUBLIC_URL: 'ftp://wallet.example.com' }, { PUBLIC_URL: 'wallet.example.com' }],
      good: [{ PUBLIC_URL: 'https://wallet.example.com' }],
    },
    JWT_SECRET: { bad: [{ JWT_SECRET: 'short' }, { ...PRODUCTION, JWT_SECRET: '' }], good: [{ JWT_SECRET: 'k'.repeat(32) }] },
    DATA_ENCRYPTION_KEY: {
      bad: [{ DATA_ENCRYPTION_KEY: 'xyz' }, { ...PRODUCTION, DATA_ENCRYPTION_KEY: '' }],
      good: [{ DATA_ENCRYPTION_KEY: '0f'.repeat(32) }],
    },
    ACCESS_TOKEN_TTL_SECONDS: { bad: [{ ACCESS_TOKEN_TTL_SECONDS: '10' }], good: [{ ACCESS_TOKEN_TTL_SECONDS: '600' }] },
    SMTP_URL: {
      bad: [
        { SMTP_URL: 'http://mail:25' },
        { SMTP_URL: 'smtp://' },
        { SMTP_URL: `smtp://127.0.0.1:${busyPort}` }, // answers, but not SMTP
        { SMTP_URL: 'smtp://127.0.0.1:1' },
        { ...PRODUCTION, MAIL_OUTBOX: '' },
      ],
      good: [{ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }],
    },
    MAIL_OUTBOX: {
      bad: [{ MAIL_OUTBOX: 'yes' }, { MAIL_OUTBOX: 'true', SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }],
      good: [{ ...PRODUCTION }],
    },
    MAIL_FROM: {
      bad: [{ MAIL_FROM: 'nobody' }, { MAIL_FROM: 'Wallet <no address>' }],
      good: [{ MAIL_FROM: 'Wallet <no-reply@wallet.example.com>' }],
    },
    TRUST_PROXY: {
      bad: [{ TRUST_PROXY: 'true' }, { TRUST_PROXY: '10.0.0.0/33' }, { TRUST_PROXY: 'proxy.internal' }],
      good: [{ TRUST_PROXY: '1' }, { TRUST_PROXY: '10.0.0.0/8,fd00::/8' }, { TRUST_PROXY: 'false' }],
    },
    REDIS_URL: {
      bad: [
        { REDIS_URL: 'http://127.0.0.1:6379' },
        { REDIS_URL: 'redis://127.0.0.1:6379/x' },
        { REDIS_URL: 'redis://127.0.0.1:1' },
        { REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/99` },
      ],
      good: [{ REDIS_URL: redisUrl }, { REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/1` }],
    },
    REDIS_KEY_PREFIX: { bad: [{ REDIS_KEY_PREFIX: 'has space' }], good: [{ REDIS_KEY_PREFIX: 'ledger-eu:' }] },
    READY_MAX_LAG: { bad: [{ READY_MAX_LAG: '-1' }], good: [{ READY_MAX_LAG: '10' }] },
    CAPTCHA_PROVIDER: { bad: [{ CAPTCHA_PROVIDER: 'hcaptcha' }], good: [{ CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 'secret' }] },
    CAPTCHA_SECRET: { bad: [{ CAPTCHA_PROVIDER: 'recaptcha' }], good: [{ CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 'secret' }] },
    DEMO_USERS: {
      bad: [
        { DEMO_USERS: 'yes' },
        { ...PRODUCTION, DEMO_USERS: 'true' },
        { DEMO_USERS: 'true', DATABASE_URL: 'postgres://db:5432/ledger' },
      ],
      good: [{ DEMO_USERS: 'false' }, { DEMO_USERS: 'true' }],
    },
    FOUR_EYES_LIMIT_USD: {
      bad: [{ FOUR_EYES_LIMIT_USD: '1e3' }, { FOUR_EYES_LIMIT_USD: '-1' }],
      good: [{ FOUR_EYES_LIMIT_USD: '2500.50' }],
    },
    FOUR_EYES_EXPIRY_HOURS: { bad: [{ FOUR_EYES_EXPIRY_HOURS: '0' }], good: [{ FOUR_EYES_EXPIRY_HOURS: '24' }] },
    FOUR_EYES_DAILY_LIMIT_USD: {
      bad: [{ FOUR_EYES_DAILY_LIMIT_USD: 'lots' }, { FOUR_EYES_LIMIT_USD: '1000', FOUR_EYES_DAILY_LIMIT_USD: '999' }],
      good: [{ FOUR_EYES_DAILY_LIMIT_USD: '7500' }],
    },
    FOUR_EYES_SEPARATION_DAYS: { bad: [{ FOUR_EYES_SEPARATION_DAYS: '-1' }], good: [{ FOUR_EYES_SEPARATION_DAYS: '90' }] },
    METRICS_TOKEN: { bad: [{ METRICS_TOKEN: 'short' }], good: [{ METRICS_TOKEN: 'm'.repeat(24) }] },
    PRICE_MAX_AGE_S: { bad: [{ PRICE_MAX_AGE_S: '0' }, { PRICE_MAX_AGE_S: 'ten' }], good: [{ PRICE_MAX_AGE_S: '120' }] },
    PRICE_FEED_URL: { bad: [{ PRICE_FEED_URL: 'ftp://prices.example.com' }], good: [{ PRICE_FEED_URL: 'https://prices.example.com/v1' }] },
    RATE_LIMIT_FACTOR: { bad: [{ RATE_LIMIT_FACTOR: '0' }, { RATE_LIMIT_FACTOR: '1.5' }], good: [{ RATE_LIMIT_FACTOR: '20' }] },
    SESSION_IDLE_DAYS: { bad: [{ SESSION_IDLE_DAYS: '0' }, { SESSION_IDLE_DAYS: '60' }], good: [{ SESSION_IDLE_DAYS: '3' }] },
    SESSION_MAX_DAYS: { bad: [{ SESSION_MAX_DAYS: '-1' }, { SESSION_MAX_DAYS: '400' }], good: [{ SESSION_MAX_DAYS: '14' }] },
    STAFF_SESSION_IDLE_MINUTES: {
      bad: [{ STAFF_SESSION_IDLE_MINUTES: 'half an hour' }, { STAFF_SESSION_IDLE_MINUTES: '900' }],
      good: [{ STAFF_SESSION_IDLE_MINUTES: '15' }],
    },
    STAFF_SESSION_MAX_HOURS: { bad: [{ STAFF_SESSION_MAX_HOURS: '0' }], good: [{ STAFF_SESSION_MAX_HOURS: '8' }] },
    UPLOAD_QUOTA_MB: { bad: [{ UPLOAD_QUOTA_MB: '-5' }], good: [{ UPLOAD_QUOTA_MB: '50' }] },
    DOCS_PUBLIC: { bad: [{ DOCS_PUBLIC: 'yes' }], good: [{ DOCS_PUBLIC: 'true' }] },
    LOG_LEVEL: { bad: [{ LOG_LEVEL: 'verbose' }], good: [{ LOG_LEVEL: 'warn' }] },
    NODE_ENV: { bad: [{ NODE_ENV: 'staging' }], good: [{ ...PRODUCTION }] },
  };
}

/** Variables read by the operator CLI only, each with how its refusal is checked here. */
const CLI_ONLY: Record<string, () => void> = {
  BACKUP_PASSPHRASE: () => {
    expect(() => checkPassphrase('too short')).toThrow(new KeysError('BACKUP_PASSPHRASE must be at least 12 characters.'));
    expect(checkPassphrase('a long passphrase')).toBe('a long passphrase');
  },
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-settings-'));
  aFile = path.join(dataDir, 'a-file');
  fs.writeFileSync(aFile, 'x');
  busyPort = await listening((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
  smtpPort = await listening(smtpPeer);
});

afterAll(async () => {
  for (const server of servers) await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('every setting the guide lists', () => {
  it('has values walked here: refused ones and ones that start', () => {
    const listed = new Set([
      ...tableVariables('README.md', '## Configuration'),
      ...tableVariables('docs/operations.md', '## Configuration'),
    ]);
    expect(listed.size).toBeGreaterThan(30);
    const walked = new Set([...Object.keys(cases()), ...Object.keys(CLI_ONLY)]);
    const missing = [...listed].filter((name) => !walked.has(name));
    expect(missing, 'listed in the guide but not walked here: add their refused and accepted values').toEqual([]);
  });

  it('refuses each bad value at start in one line naming the variable', async () => {
    for (const [name, { bad }] of Object.entries(cases())) {
      expect(bad.length, name).toBeGreaterThan(0);
      for (const env of bad) await refusedAtStart(name, env);
    }
    for (const check of Object.values(CLI_ONLY)) check();
  }, 60_000);

  it('starts with each good value', async () => {
    for (const [name, { good }] of Object.entries(cases())) {
      for (const env of good) await expect(startUp(env), `${name}: ${JSON.stringify(env)}`).resolves.toBeUndefined();
    }
  }, 60_000);

  it('names no password of a URL in a refusal', async () => {
    const message = await refusedAtStart('DATABASE_URL', { DATABASE_URL: 'postgres://ledger:s3cret@127.0.0.1:1/ledger' });
    expect(message).toMatch(/cannot use the database at 127\.0\.0\.1:1\/ledger \(ECONNREFUSED/);
    expect(message).not.toContain('s3cret');
    expect(await refusedAtStart('SMTP_URL', { SMTP_URL: 'smtp://mailer:s3cret@127.0.0.1:1' })).not.toContain('s3cret');
  });

  it.skipIf(!pooler)(
    'refuses prepared statements through a transaction pooler that does not keep them, naming DB_PREPARED_STATEMENTS',
    async () => {
      const message = await refusedAtStart('DB_PREPARED_STATEMENTS', { DATABASE_URL: pooler!, DB_PREPARED_STATEMENTS: 'true' });
      expect(message).toContain('set DB_PREPARED_STATEMENTS=false');
    },
  );
});

describe('the built server with a bad setting', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'ignore' });
  }, 120_000);

  /** `node build/server/main.js` with only `env` (and PATH): its exit code and what it printed on stderr. */
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['build/server/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, DEMO_USERS: 'false', LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it.each([
    ['PORT', () => ({ PORT: String(busyPort) }), /^Invalid configuration: PORT: port \d+ on 127\.0\.0\.1 is already in use \(EADDRINUSE\)/],
    ['HOST', () => ({ HOST: '192.0.2.1', PORT: '0' }), /^Invalid configuration: HOST: 192\.0\.2\.1 is not an address of this machine/],
    ['HOST', () => ({ HOST: 'nosuch.invalid', PORT: '0' }), /^Invalid configuration: HOST: nosuch\.invalid cannot be resolved/],
    [
      'DATABASE_URL',
      () => ({ DATABASE_URL: 'postgres://::::', PORT: '0' }),
      /^Invalid configuration: DATABASE_URL: DATABASE_URL is not a URL/,
    ],
    [
      'REDIS_URL',
      () => ({ REDIS_URL: `${redisUrl.replace(/\/\d*$/, '')}/99`, PORT: '0' }),
      /^Invalid configuration: REDIS_URL: Redis at .* has no database 99/,
    ],
    [
      'SMTP_URL',
      () => ({ SMTP_URL: 'smtp://127.0.0.1:1', PORT: '0' }),
      /^Invalid configuration: SMTP_URL: cannot use the mail server at 127\.0\.0\.1:1 /,
    ],
  ])('stops with exit code 2 and one line naming %s', (_name, env, line) => {
    const result = run(env());
    expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
    expect(result.stderr.trim()).toMatch(line);
    expect(result.status).toBe(2);
  });

  it('starts and serves with good values', async () => {
    const child = spawn(process.execPath, ['build/server/main.js'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-settings-')),
        DEMO_USERS: 'false',
        LOG_LEVEL: 'silent',
        PORT: '0',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        TRUST_PROXY: '1',
      },
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(line).toMatch(/^wallet-ledger listening on http:\/\/127\.0\.0\.1:[1-9]\d* \(PGlite in /);
      const port = Number(/:(\d+) /.exec(line)![1]);
      expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
      // Drained on SIGTERM (docs/operations.md, "Draining an instance"): it closes and exits 0.
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/livez`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});

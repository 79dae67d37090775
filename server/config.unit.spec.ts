import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { checkDatabaseUrl, checkDataDir } from './preflight.js';

/** The message a refused environment gives: asserted to be one line naming the variable. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'x'.repeat(40),
  DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
  PUBLIC_URL: 'https://wallet.example.com',
  SMTP_URL: 'smtp://mail:25',
};

describe('configuration', () => {
  it.each([
    ['HOST', { HOST: 'not a host!' }],
    ['MAIL_FROM', { MAIL_FROM: 'nobody' }],
    ['MAIL_FROM', { MAIL_FROM: 'Wallet <no address>' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://wallet.example.com' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'proxy.internal' }],
    ['REDIS_URL', { REDIS_URL: 'http://127.0.0.1:6379' }],
    ['REDIS_KEY_PREFIX', { REDIS_KEY_PREFIX: 'has space' }],
    ['READY_MAX_LAG', { READY_MAX_LAG: '-1' }],
    ['MAIL_OUTBOX', { MAIL_OUTBOX: 'yes' }],
    ['PORT', { PORT: 'eighty' }],
  ])('refuses a bad %s with one line naming it', (name, env) => {
    const message = refusal(env);
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name}: `));
  });

  it('in production requires PUBLIC_URL, and SMTP_URL unless MAIL_OUTBOX=true asks for the outbox', () => {
    expect(loadConfig(PRODUCTION).NODE_ENV).toBe('production');
    expect(refusal({ ...PRODUCTION, PUBLIC_URL: '' })).toBe('Invalid configuration: PUBLIC_URL: PUBLIC_URL is required in production');
    expect(refusal({ ...PRODUCTION, SMTP_URL: '' })).toMatch(
      /^Invalid configuration: SMTP_URL: SMTP_URL is required in production \(or MAIL_OUTBOX=true/,
    );
    expect(loadConfig({ ...PRODUCTION, SMTP_URL: '', MAIL_OUTBOX: 'true' }).MAIL_OUTBOX).toBe('true');
    // Outside production the outbox stays the default.
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
  });

  it('reads TRUST_PROXY as off, a hop count or a list of addresses and blocks', () => {
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: 'app.internal' }).HOST).toBe('app.internal');
    expect(loadConfig({ MAIL_FROM: 'Wallet Ledger <no-reply@wallet.example.com>' }).MAIL_FROM).toBe(
      'Wallet Ledger <no-reply@wallet.example.com>',
    );
  });

  it('refuses DATA_DIR on a file or under /proc with one line naming it', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-cfg-')), 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => checkDataDir(file)).toThrow(new ConfigError(`Invalid configuration: DATA_DIR: ${file} is a file, not a folder`));
    expect(() => checkDataDir('/proc/self/var')).toThrow(/^Invalid configuration: DATA_DIR: \/proc\/self\/var is in a system file system/);
    expect(() => checkDataDir(path.join(file, 'below'))).toThrow(/^Invalid configuration: DATA_DIR: /);
    const fresh = path.join(path.dirname(file), 'fresh');
    checkDataDir(fresh);
    expect(fs.statSync(fresh).isDirectory()).toBe(true);
  });

  it('refuses an unreachable database URL at once with one line naming DATABASE_URL', async () => {
    const started = Date.now();
    // Nothing listens on port 1; the password must not appear in the message.
    const err = await checkDatabaseUrl('postgres://ledger:s3cret@127.0.0.1:1/ledger', 2_000).catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.message).toMatch(/^Invalid configuration: DATABASE_URL: cannot use the database at 127\.0\.0\.1:1\/ledger \(ECONNREFUSED/);
    expect(err!.message).not.toContain('s3cret');
    expect(err!.message.split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('a refused value stops the server process with one line on stderr and a non-zero exit', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { PATH: process.env.PATH, ...env },
        encoding: 'utf8',
        // Each start compiles the server through tsx: slow on a busy two-core machine.
        timeout: 120_000,
      });
    const badHost = run({ HOST: 'bad host', DATA_DIR: os.tmpdir() });
    expect(badHost.status).toBe(2);
    expect(badHost.stderr.trim()).toBe('Invalid configuration: HOST: HOST must be an IP address or a host name (0.0.0.0 in containers)');
    const unreachable = run({ DATABASE_URL: 'postgres://ledger:ledger@127.0.0.1:1/ledger', DATA_DIR: os.tmpdir() });
    expect(unreachable.status).toBe(2);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toMatch(/^Invalid configuration: DATABASE_URL: cannot use the database at 127\.0\.0\.1:1\/ledger/);
    const noRedis = run({
      REDIS_URL: 'redis://127.0.0.1:1',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-cfg-')),
      DEMO_USERS: 'false',
      LOG_LEVEL: 'silent',
    });
    expect(noRedis.status).toBe(2);
    expect(noRedis.stderr.trim().split('\n')).toHaveLength(1);
    expect(noRedis.stderr).toMatch(/^Invalid configuration: REDIS_URL: cannot use Redis at 127\.0\.0\.1:1 /);
  }, 400_000);
});

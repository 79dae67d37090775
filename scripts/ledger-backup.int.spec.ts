import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { OutboxMailer } from '../server/mail/mailer.js';
import { bearer, registeredCustomer, signIn, type TestApp } from '../tests/support/test-app.js';
import { usingPostgres, type TestDatabase } from '../tests/support/test-database.js';
import { backupDataDir, restoreDataDir } from './ledger-backup.js';

const PASSPHRASE = 'correct horse battery staple';
const EMAIL = 'authenticator@example.com';
const PASSWORD = 'authenticator-pass-1';

/** The app on the embedded database in `dataDir`, as `npm start` runs it there. */
async function appOn(dataDir: string): Promise<TestApp> {
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: 'http://wallet.test' });
  const app = await buildApp(config, { database, clientDir: path.join(dataDir, 'no-client') });
  return {
    app,
    database: database as TestDatabase,
    dataDir,
    outbox: new OutboxMailer(path.join(dataDir, 'outbox')),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Signs in with the password, then answers the authenticator's challenge with `code`. */
async function signInWithCode(t: TestApp, factorId: string, code: string) {
  const session = await signIn(t, EMAIL, PASSWORD);
  const challenge = (
    await t.app.inject({ method: 'POST', url: `/auth/v1/factors/${factorId}/challenge`, headers: bearer(session.access_token) })
  ).json().id;
  return t.app.inject({
    method: 'POST',
    url: `/auth/v1/factors/${factorId}/verify`,
    headers: bearer(session.access_token),
    payload: { challenge_id: challenge, code },
  });
}

// The embedded database's backup: the same on every pass, so it runs on the PGlite one only.
describe.skipIf(usingPostgres)('ledger backup and restore with the keys', () => {
  const folders: string[] = [];
  const folder = (name: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ledger-${name}-`));
    folders.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a customer with an authenticator signs in with a code on a ledger restored into an empty folder', async () => {
    const dataDir = folder('backed-up');
    const before = await appOn(dataDir);
    let factorId: string;
    let secret: string;
    try {
      const s = await registeredCustomer(before, EMAIL, PASSWORD);
      const enrol = (
        await before.app.inject({
          method: 'POST',
          url: '/auth/v1/factors',
          headers: bearer(s.access_token),
          payload: { factor_type: 'totp' },
        })
      ).json();
      [factorId, secret] = [enrol.id, enrol.totp.secret];
      const challenge = (
        await before.app.inject({ method: 'POST', url: `/auth/v1/factors/${factorId}/challenge`, headers: bearer(s.access_token) })
      ).json().id;
      const verified = await before.app.inject({
        method: 'POST',
        url: `/auth/v1/factors/${factorId}/verify`,
        headers: bearer(s.access_token),
        payload: { challenge_id: challenge, code: await generate({ secret }) },
      });
      expect(verified.statusCode).toBe(200);
    } finally {
      await before.close();
    }

    const file = path.join(folder('backups'), 'ledger.backup');
    await expect(backupDataDir(dataDir, file)).rejects.toThrow(/Set BACKUP_PASSPHRASE to include them, encrypted, or pass --without-keys/);
    await expect(backupDataDir(dataDir, file, { passphrase: 'too short' })).rejects.toThrow(
      'BACKUP_PASSPHRASE must be at least 12 characters.',
    );
    expect(fs.existsSync(file)).toBe(false);
    const backup = await backupDataDir(dataDir, file, { passphrase: PASSPHRASE });
    expect(backup.keys).toBe('included');
    // The keys travel sealed: neither of them is in the file as written.
    const keys = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
    const written = fs.readFileSync(file).toString('latin1');
    expect(written).not.toContain(keys.dataKey);
    expect(written).not.toContain(keys.jwtSecret);

    // Another machine: an empty folder. A wrong passphrase, or none, changes nothing there.
    const restoredDir = folder('restored');
    await expect(restoreDataDir(restoredDir, file, { passphrase: 'not the passphrase at all' })).rejects.toThrow(
      /BACKUP_PASSPHRASE does not open the keys in this backup/,
    );
    await expect(restoreDataDir(restoredDir, file)).rejects.toThrow(
      /set BACKUP_PASSPHRASE to the passphrase it was made with, or pass --without-keys/,
    );
    expect(fs.readdirSync(restoredDir)).toEqual([]);
    const restored = await restoreDataDir(restoredDir, file, { passphrase: PASSPHRASE });
    expect(restored).toMatchObject({ keys: 'restored', keptAside: null, keysKeptAside: null });
    expect((fs.statSync(path.join(restoredDir, 'secrets.json')).mode & 0o777).toString(8)).toBe('600');

    const after = await appOn(restoredDir);
    try {
      // The next time step: the code used before the backup is spent.
      const answer = await signInWithCode(after, factorId, await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
      expect(answer.statusCode, answer.body).toBe(200);
      expect(JSON.parse(Buffer.from(answer.json().access_token.split('.')[1], 'base64url').toString()).aal).toBe('aal2');
    } finally {
      await after.close();
    }
  }, 120_000);

  it('a backup made --without-keys says so, and a restore over other keys keeps them aside only with --force', async () => {
    const dataDir = folder('plain');
    await (await openDatabase({ dataDir })).close();
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify({ jwtSecret: 'backed up', dataKey: 'ff'.repeat(32) }));
    const file = path.join(dataDir, 'plain.backup');
    expect((await backupDataDir(dataDir, file, { withoutKeys: true })).keys).toBe('left out');
    const restoredDir = folder('plain-restored');
    expect((await restoreDataDir(restoredDir, file)).keys).toBe('not in the backup');

    const sealed = path.join(dataDir, 'sealed.backup');
    await backupDataDir(dataDir, sealed, { passphrase: PASSPHRASE });
    const other = folder('other-keys');
    fs.writeFileSync(path.join(other, 'secrets.json'), JSON.stringify({ jwtSecret: 'another', dataKey: '00'.repeat(32) }));
    await expect(restoreDataDir(other, sealed, { passphrase: PASSPHRASE })).rejects.toThrow(/holds other keys\. Pass --force/);
    const forced = await restoreDataDir(other, sealed, { passphrase: PASSPHRASE, force: true });
    expect(JSON.parse(fs.readFileSync(forced.keysKeptAside!, 'utf8')).jwtSecret).toBe('another');
    expect(fs.readFileSync(path.join(other, 'secrets.json'), 'utf8')).toBe(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
  }, 120_000);
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The keys of a data folder (DATA_DIR/secrets.json: the token signing secret and the key that
 * encrypts second-factor secrets) sealed with a passphrase for a backup: scrypt derives a
 * 256-bit key from the passphrase and a random salt, AES-256-GCM encrypts and authenticates.
 * Without them a restored ledger signs no existing session and reads no authenticator secret.
 */

/** scrypt's cost: 2^15 x 8 x 128 bytes = 32 MiB of memory, about 0.1 s per try. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const MAXMEM = 64 * 1024 * 1024;
export const MIN_PASSPHRASE = 12;

export interface SealedKeys {
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

export class KeysError extends Error {}

/** The passphrase as given, or a refusal naming what is wrong with it. */
export function checkPassphrase(passphrase: string | undefined): string {
  if (!passphrase) throw new KeysError('BACKUP_PASSPHRASE is not set.');
  if ([...passphrase].length < MIN_PASSPHRASE) throw new KeysError(`BACKUP_PASSPHRASE must be at least ${MIN_PASSPHRASE} characters.`);
  return passphrase;
}

function derive(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }): Buffer {
  return crypto.scryptSync(passphrase.normalize('NFC'), salt, 32, { ...cost, maxmem: MAXMEM });
}

export function sealKeys(secretsJson: string, passphrase: string): SealedKeys {
  const salt = crypto.randomBytes(16);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', derive(passphrase, salt, SCRYPT), iv);
  const data = Buffer.concat([cipher.update(secretsJson, 'utf8'), cipher.final()]);
  const b64 = (b: Buffer) => b.toString('base64');
  return { kdf: 'scrypt', ...SCRYPT, salt: b64(salt), iv: b64(iv), tag: b64(cipher.getAuthTag()), data: b64(data) };
}

/** secrets.json's text, or a refusal when the passphrase is not the one the keys were sealed with. */
export function openKeys(sealed: SealedKeys, passphrase: string): string {
  const buf = (s: string) => Buffer.from(s, 'base64');
  if (
    sealed.kdf !== 'scrypt' ||
    ![sealed.N, sealed.r, sealed.p].every(Number.isSafeInteger) ||
    sealed.N > 2 ** 20 ||
    sealed.r > 32 ||
    sealed.p > 16
  ) {
    throw new KeysError('the keys in this backup are sealed in a way this version does not read.');
  }
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', derive(passphrase, buf(sealed.salt), sealed), buf(sealed.iv));
    decipher.setAuthTag(buf(sealed.tag));
    return Buffer.concat([decipher.update(buf(sealed.data)), decipher.final()]).toString('utf8');
  } catch {
    throw new KeysError('BACKUP_PASSPHRASE does not open the keys in this backup (it is not the passphrase the backup was made with).');
  }
}

export const secretsFile = (dataDir: string) => path.join(dataDir, 'secrets.json');

/** secrets.json's text, or null when the folder has none (keys from the environment, or never started). */
export function readSecrets(dataDir: string): string | null {
  const file = secretsFile(dataDir);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
}

/** True when two secrets.json texts hold the same keys (formatting aside). */
export function sameKeys(a: string, b: string): boolean {
  const keys = (text: string) => {
    try {
      const v = JSON.parse(text) as { jwtSecret?: unknown; dataKey?: unknown };
      return JSON.stringify([v.jwtSecret, v.dataKey]);
    } catch {
      return text;
    }
  };
  return keys(a) === keys(b);
}

/** Writes secrets.json (mode 0600) through a temporary file, so a crash leaves the old one or the new one. */
export function writeSecrets(dataDir: string, text: string): void {
  const file = secretsFile(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(`${file}.partial`, text, { mode: 0o600 });
  fs.renameSync(`${file}.partial`, file);
}

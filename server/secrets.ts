import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';

export interface Secrets {
  jwtSecret: string;
  /** 32 bytes for AES-256-GCM. */
  dataKey: Buffer;
}

/**
 * The signing and encryption keys. Production must set them; elsewhere they are made once
 * and kept in DATA_DIR/secrets.json (mode 0600), so sessions and encrypted secrets survive
 * a restart of the embedded default.
 */
export function resolveSecrets(config: Config): Secrets {
  if (config.JWT_SECRET && config.DATA_ENCRYPTION_KEY) {
    return { jwtSecret: config.JWT_SECRET, dataKey: Buffer.from(config.DATA_ENCRYPTION_KEY, 'hex') };
  }
  const file = path.join(config.DATA_DIR, 'secrets.json');
  let stored: { jwtSecret?: string; dataKey?: string } = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!stored.jwtSecret || !stored.dataKey) {
    stored = { jwtSecret: crypto.randomBytes(48).toString('base64url'), dataKey: crypto.randomBytes(32).toString('hex'), ...stored };
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return {
    jwtSecret: config.JWT_SECRET ?? stored.jwtSecret!,
    dataKey: Buffer.from(config.DATA_ENCRYPTION_KEY ?? stored.dataKey!, 'hex'),
  };
}

/** AES-256-GCM: `iv.tag.ciphertext`, base64url parts. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
}

import fs from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { OutboxMailer, type StoredMail } from '../../server/mail/mailer.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import { solveAltcha } from './proof-of-work.js';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  dataDir: string;
  outbox: OutboxMailer;
  close(): Promise<void>;
}

/** The whole app on a fresh database and data folder, for `inject`. */
/**
 * For suites of the spec's staff behaviour below the two-person rule's limit: a limit no test
 * amount reaches (the rule itself: server/staff/four-eyes.int.spec.ts).
 */
export const BELOW_FOUR_EYES_LIMIT = { FOUR_EYES_LIMIT_USD: '100000000000' } as const;

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-app-'));
  const database = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: 'http://wallet.test', ...env });
  const app = await buildApp(config, { database, clientDir: path.join(dataDir, 'no-client') });
  return {
    app,
    database,
    dataDir,
    outbox: new OutboxMailer(path.join(dataDir, 'outbox')),
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Solves the app's proof-of-work challenge (see proof-of-work.ts), fetched from `remoteAddress` (its cost is the client's). */
export async function solveCaptcha(app: FastifyInstance, remoteAddress?: string): Promise<string> {
  return solveAltcha(
    (await app.inject({ method: 'GET', url: '/functions/v1/captcha-challenge', ...(remoteAddress ? { remoteAddress } : {}) })).json(),
  );
}

/** Waits for the newest mail to an address (mail is sent after the answer). */
export async function mailTo(
  outbox: OutboxMailer,
  to: string,
  subject?: RegExp,
  opts: { newerThan?: StoredMail; timeoutMs?: number } = {},
): Promise<StoredMail> {
  const deadline = Date.now() + (opts.timeoutMs ?? 5000);
  for (;;) {
    const mails = (await outbox.list()).filter(
      (m) =>
        m.to.toLowerCase() === to.toLowerCase() && (!subject || subject.test(m.subject)) && (!opts.newerThan || m.id > opts.newerThan.id),
    );
    if (mails[0]) return mails[0];
    if (Date.now() > deadline) throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const bearer = (token: string): InjectOptions['headers'] => ({ authorization: `Bearer ${token}` });

/** A client address of its own per account, so that per-IP limits of one test do not spill into another. */
export function ipFor(email: string): string {
  const h = createHash('sha256').update(email.toLowerCase()).digest();
  return `10.${h[0]}.${h[1]}.${h[2]}`;
}

/** Registers, confirms through the e-mailed link and signs in; returns the session. */
export async function registeredCustomer(t: TestApp, email: string, password = 'correct horse 1', fullName = 'Test Customer') {
  const signup = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    remoteAddress: ipFor(email),
    payload: {
      email,
      password,
      data: { full_name: fullName },
      gotrue_meta_security: { captcha_token: await solveCaptcha(t.app, ipFor(email)) },
    },
  });
  if (signup.statusCode !== 200) throw new Error(`signup ${signup.statusCode} ${signup.body}`);
  const mail = await mailTo(t.outbox, email, /Confirm/);
  const link = /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec(mail.text)![0];
  const confirm = await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
  if (confirm.statusCode !== 303) throw new Error(`confirm ${confirm.statusCode}`);
  return signIn(t, email, password);
}

export async function signIn(t: TestApp, email: string, password: string, captchaToken?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/token?grant_type=password',
    remoteAddress: ipFor(email),
    payload: { email, password, ...(captchaToken ? { gotrue_meta_security: { captcha_token: captchaToken } } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in ${res.statusCode} ${res.body}`);
  return res.json() as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    user: { id: string; email: string; user_metadata: Record<string, unknown>; factors: { id: string; status: string }[] };
  };
}

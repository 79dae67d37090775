import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { solveChallenge } from 'altcha-lib/v1';
import { openDatabase } from '../../server/db/database.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import { verifyReadModels } from '../../projections/verify.js';
import { OutboxMailer } from '../../server/mail/mailer.js';

const root = path.resolve(import.meta.dirname, '../..');
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
const PORT = Number(process.env.CRASH_PORT ?? 3291);
const base = `http://127.0.0.1:${PORT}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startServer(dataDir: string): ChildProcess {
  // `node --import tsx`, not the tsx binary: that one forks, and SIGKILL would hit only its wrapper.
  return spawn(process.execPath, ['--import', 'tsx', 'tests/long/server-child.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DEMO_USERS: 'false',
      RATE_LIMIT_FACTOR: '50',
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitHealthy(timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('the server did not come up');
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function captcha(): Promise<string> {
  const c = (await (await fetch(`${base}/functions/v1/captcha-challenge`)).json()) as {
    algorithm: string;
    challenge: string;
    maxnumber: number;
    salt: string;
    signature: string;
  };
  const s = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  return Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: s!.number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
}

async function customer(dataDir: string, email: string) {
  const password = 'crash-pass-123';
  await post('/auth/v1/signup', {
    email,
    password,
    data: { full_name: 'Crash Test' },
    gotrue_meta_security: { captcha_token: await captcha() },
  });
  const outbox = new OutboxMailer(path.join(dataDir, 'outbox'));
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    const mail = (await outbox.list()).find((m) => m.to === email);
    link = mail && /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec(mail.text)?.[0];
    if (!link) await sleep(50);
  }
  await fetch(link!, { redirect: 'manual' });
  const session = await post('/auth/v1/token?grant_type=password', { email, password });
  const token = session.body.access_token as string;
  const h = { authorization: `Bearer ${token}` };
  const card = await post(
    '/functions/v1/add-raw-payment-method',
    { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Crash Test', expiryDate: '12/39', cvv: '123' },
    h,
  );
  return { userId: (session.body.user as { id: string }).id, headers: h, cardId: (card.body.paymentMethod as { id: string }).id };
}

/**
 * The server as its own process under a steady load of deposit requests, killed with SIGKILL
 * at random moments and started again. Every request carries an Idempotency-Key; those whose
 * answer was lost are sent again after the restart, as a client would.
 */
describe('crash and restart (long)', () => {
  it(`survives ${KILLS} kills: every acknowledged command is in the log once, the read tables match it`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-crash-server-'));
    const acked = new Map<string, string>(); // idempotency key -> transactionId
    const unknown = new Set<string>();
    let sent = 0;
    let kills = 0;
    let server = startServer(dataDir);
    try {
      await waitHealthy();
      const customers = [await customer(dataDir, 'crash-a@example.com'), await customer(dataDir, 'crash-b@example.com')];

      const send = async (c: (typeof customers)[number], key: string) => {
        sent++;
        try {
          const res = await post(
            '/functions/v1/create-deposit-request',
            { tokenId: 'BTC', amount: '0.01', paymentMethodId: c.cardId, userId: c.userId },
            { ...c.headers, 'idempotency-key': key },
          );
          if (res.status === 200) {
            const id = res.body.transactionId as string;
            const before = acked.get(key);
            if (before && before !== id) throw new Error(`key ${key} answered ${before} and then ${id}`);
            acked.set(key, id);
            unknown.delete(key);
          } else if (res.status >= 500) unknown.add(key);
        } catch (err) {
          if ((err as Error).message.startsWith('key ')) throw err;
          unknown.add(key); // the connection died with the server: the outcome is unknown
        }
      };

      for (let life = 0; life < KILLS; life++) {
        const keysOfLife = new Map<string, (typeof customers)[number]>();
        // Retry what the last crash left unanswered, with the same keys.
        for (const key of unknown) keysOfLife.set(key, customers[Number(key.split(':')[0])]!);
        let running = true;
        const workers = customers.map(async (c, i) => {
          for (const [key, owner] of keysOfLife) if (owner === c) await send(c, key);
          while (running) await send(c, `${i}:${randomUUID()}`);
        });
        await sleep(300 + Math.random() * 1200);
        server.kill('SIGKILL');
        kills++;
        await new Promise((r) => server.once('exit', r));
        running = false;
        await Promise.all(workers);
        server = startServer(dataDir);
        await waitHealthy();
      }
      // Last retries, then a clean stop.
      for (const key of [...unknown]) await send(customers[Number(key.split(':')[0])]!, key);
      expect(unknown.size).toBe(0);

      // The projections catch up by themselves: the restarted server shows every acknowledged
      // deposit, including those whose projection the kills interrupted, with no replay run.
      for (const [i, c] of customers.entries()) {
        const mine = [...acked.keys()].filter((k) => k.startsWith(`${i}:`)).length;
        let shown = -1;
        for (let tries = 0; tries < 100 && shown !== mine; tries++) {
          shown = ((await (await fetch(`${base}/api/v1/transactions?pageSize=1`, { headers: c.headers })).json()) as { count: number })
            .count;
          if (shown !== mine) await sleep(100);
        }
        expect(shown, `customer ${i}: deposits shown vs acknowledged`).toBe(mine);
      }
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    } finally {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGKILL');
        await new Promise((r) => server.once('exit', r));
      }
    }

    const database = await openDatabase({ dataDir });
    try {
      const store = new PostgresEventStore(database.db);
      const { rows } = await sql<{ key: string; n: number | string }>`
        select metadata->>'idempotencyKey' as key, count(*) as n from events where metadata->>'idempotencyKey' is not null group by 1`.execute(
        database.db,
      );
      const perKey = new Map(rows.map((r) => [r.key, Number(r.n)]));
      const missing = [...acked.keys()].filter((k) => !perKey.has(k));
      const twice = [...perKey].filter(([, n]) => n !== 1);
      expect(missing, 'acknowledged commands missing from the log').toEqual([]);
      expect(twice, 'commands recorded more than once').toEqual([]);
      const ids = [...acked.values()];
      const inTable = await database.db.selectFrom('transactions').select('id').where('id', 'in', ids).execute();
      expect(inTable).toHaveLength(ids.length);
      const report = await verifyReadModels(database.db, store);
      expect(report.ok, JSON.stringify(report.foldMismatches)).toBe(true);
      const summary = {
        kills,
        commandsSent: sent,
        commandsAcknowledged: acked.size,
        commandsChecked: acked.size,
        eventsInLog: rows.length,
      };
      console.log(`crash and restart: survived ${kills} kills; ${sent} commands sent, ${acked.size} acknowledged and checked`);
      fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
      fs.writeFileSync(path.join(root, 'tmp', 'crash-restart-last-run.json'), JSON.stringify(summary, null, 2));
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 1_800_000);
});

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { solveChallenge } from 'altcha-lib/v1';
import WebSocket from 'ws';
import { OutboxMailer } from '../../server/mail/mailer.js';

/** What the failover drill asks of the app over HTTP, as a client would: sign-up, deposits with Idempotency-Keys, probes. */

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

export class DrillClient {
  constructor(readonly base: string) {}

  async post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const res = await fetch(`${this.base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => ({}))) as Record<string, unknown>,
      retryAfter: res.headers.get('retry-after'),
    };
  }

  async ready(): Promise<number> {
    try {
      return (await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
    } catch {
      return 0;
    }
  }

  async waitReady(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if ((await this.ready()) === 200) return;
      await sleep(200);
    }
    throw new Error('the app did not become ready');
  }

  private async captcha(): Promise<string> {
    const c = (await (await fetch(`${this.base}/functions/v1/captcha-challenge`)).json()) as {
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

  /** A signed-up, confirmed customer with a card to deposit from. */
  async customer(dataDir: string, email: string): Promise<Customer> {
    const password = 'failover-pass-123';
    await this.post('/auth/v1/signup', {
      email,
      password,
      data: { full_name: 'Failover Drill' },
      gotrue_meta_security: { captcha_token: await this.captcha() },
    });
    const outbox = new OutboxMailer(path.join(dataDir, 'outbox'));
    let link: string | undefined;
    for (let i = 0; i < 200 && !link; i++) {
      const mail = (await outbox.list()).find((m) => m.to === email);
      link = mail && /https?:\/\/\S+\/auth\/v1\/verify\?type=signup&token=[\w-]+/.exec(mail.text)?.[0];
      if (!link) await sleep(50);
    }
    if (!link) throw new Error(`no confirmation mail to ${email}`);
    await fetch(link, { redirect: 'manual' });
    const session = await this.post('/auth/v1/token?grant_type=password', { email, password });
    const token = session.body.access_token as string;
    const headers = { authorization: `Bearer ${token}` };
    const card = await this.post(
      '/functions/v1/add-raw-payment-method',
      { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Failover Drill', expiryDate: '12/39', cvv: '123' },
      headers,
    );
    return {
      userId: (session.body.user as { id: string }).id,
      token,
      headers,
      cardId: (card.body.paymentMethod as { id: string }).id,
    };
  }

  /** The customer's realtime socket; `received` gets the time of every transactions hint. */
  realtime(c: Customer, received: number[]): WebSocket {
    const socket = new WebSocket(`${this.base.replace(/^http/, 'ws')}/realtime/v1?token=${encodeURIComponent(c.token)}`);
    socket.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { type?: string; topic?: string };
      if (m.type === 'event' && m.topic === 'transactions') received.push(Date.now());
    });
    socket.on('error', () => {});
    return socket;
  }
}

export interface Customer {
  userId: string;
  token: string;
  headers: Record<string, string>;
  cardId: string;
}

/** One answer the load saw, with when it was sent and when it came. */
export interface Attempt {
  key: string;
  sentAt: number;
  at: number;
  status: number;
  retryAfter: string | null;
  transactionId?: string;
  error?: string;
}

/**
 * A steady load of deposit requests, one worker per customer. Each request carries an
 * Idempotency-Key; one that is not acknowledged (a 503, a connection that died) is sent again
 * with the same key after `retryMs`, as the app's 503 with Retry-After asks, until it is. So
 * every key ends acknowledged once stopped, and the log must hold each exactly once.
 */
export class DepositLoad {
  readonly attempts: Attempt[] = [];
  /** Idempotency key -> the transaction id its acknowledgement named. */
  readonly acked = new Map<string, string>();
  /** A key answered with two different transaction ids: a doubled command. */
  readonly conflicts: string[] = [];
  private running = false;
  private workers: Promise<void>[] = [];

  constructor(
    private readonly client: DrillClient,
    private readonly customers: Customer[],
    private readonly retryMs = 100,
  ) {}

  start(): void {
    this.running = true;
    this.workers = this.customers.map((c) => this.work(c));
  }

  /** Stops sending new keys; resolves once every key sent is acknowledged. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  private async work(c: Customer): Promise<void> {
    while (this.running) {
      const key = randomUUID();
      for (;;) {
        const sentAt = Date.now();
        let attempt: Attempt;
        try {
          const res = await this.client.post(
            '/functions/v1/create-deposit-request',
            { tokenId: 'BTC', amount: '0.01', paymentMethodId: c.cardId, userId: c.userId },
            { ...c.headers, 'idempotency-key': key },
          );
          attempt = { key, sentAt, at: Date.now(), status: res.status, retryAfter: res.retryAfter };
          if (res.status === 200) attempt.transactionId = res.body.transactionId as string;
          else attempt.error = String(res.body.error ?? '');
        } catch (err) {
          // The connection to the app itself died: the outcome is unknown, the same key is sent again.
          attempt = { key, sentAt, at: Date.now(), status: 0, retryAfter: null, error: (err as Error).message };
        }
        this.attempts.push(attempt);
        if (attempt.transactionId) {
          const before = this.acked.get(key);
          if (before && before !== attempt.transactionId) this.conflicts.push(key);
          this.acked.set(key, attempt.transactionId);
          break;
        }
        await sleep(this.retryMs);
      }
    }
  }

  acksBetween(from: number, to: number): Attempt[] {
    return this.attempts.filter((a) => a.status === 200 && a.at >= from && a.at <= to);
  }

  /** The longest time without an acknowledgement in [from, to], in ms. */
  longestPause(from: number, to: number): number {
    const times = [from, ...this.acksBetween(from, to).map((a) => a.at), to].sort((a, b) => a - b);
    let longest = 0;
    for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
    return longest;
  }
}

/** Polls /readyz every `everyMs` and keeps each change of answer with its time. */
export class ReadinessWatch {
  readonly changes: { at: number; status: number }[] = [];
  private running = true;
  private loop: Promise<void>;

  constructor(client: DrillClient, everyMs = 200) {
    this.loop = (async () => {
      while (this.running) {
        const status = await client.ready();
        const at = Date.now();
        if (this.changes.at(-1)?.status !== status) this.changes.push({ at, status });
        await sleep(everyMs);
      }
    })();
  }

  /** The first time after `from` that /readyz answered other than 200, and the first 200 after that. */
  outage(from: number): { notReadyAt?: number; readyAgainAt?: number } {
    const down = this.changes.find((c) => c.at >= from && c.status !== 200);
    const up = down && this.changes.find((c) => c.at > down.at && c.status === 200);
    return { notReadyAt: down?.at, readyAgainAt: up?.at };
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

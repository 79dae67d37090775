import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface StoredMail extends MailMessage {
  id: string;
  /** ISO 8601. */
  sentAt: string;
}

/** The e-mail port (DESIGN.md decision 10): a local outbox by default, SMTP when configured. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxListOptions {
  /** At most this many messages (the newest). */
  limit?: number;
  /** Only messages to this address (case-insensitive). */
  to?: string;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Writes each message as one JSON file into a folder (`<DATA_DIR>/outbox`). File names
 * start with the UTC time and a per-process sequence number, so sorting the names sorts
 * the messages by the time they were sent. A file is written under a temporary name and
 * renamed, so a reader never sees half a message.
 */
export class OutboxMailer implements Mailer {
  private sequence = 0;

  constructor(readonly dir: string) {}

  async send(message: MailMessage): Promise<void> {
    const now = new Date();
    this.sequence = (this.sequence + 1) % 1_000_000;
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    const id = `${stamp}-${String(this.sequence).padStart(6, '0')}-${crypto.randomBytes(4).toString('hex')}`;
    const stored: StoredMail = {
      id,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
      sentAt: now.toISOString(),
    };
    await fs.mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${id}.json`);
    const temporary = path.join(this.dir, `.${id}.tmp`);
    await fs.writeFile(temporary, JSON.stringify(stored, null, 2), { mode: 0o600 });
    await fs.rename(temporary, file);
  }

  /** The stored messages, newest first. */
  async list(options: OutboxListOptions = {}): Promise<StoredMail[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const found: StoredMail[] = [];
    if (limit <= 0) return found;
    for (const name of await this.namesNewestFirst()) {
      const mail = await this.read(name);
      if (!mail) continue;
      if (options.to !== undefined && !sameAddress(mail.to, options.to)) continue;
      found.push(mail);
      if (found.length >= limit) break;
    }
    return found;
  }

  /** The newest message to this address (case-insensitive), if any. */
  async latestTo(address: string): Promise<StoredMail | undefined> {
    const [latest] = await this.list({ to: address, limit: 1 });
    return latest;
  }

  private async namesNewestFirst(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort()
      .reverse();
  }

  private async read(name: string): Promise<StoredMail | undefined> {
    try {
      const parsed = JSON.parse(await fs.readFile(path.join(this.dir, name), 'utf8')) as Partial<StoredMail>;
      if (typeof parsed.to !== 'string' || typeof parsed.subject !== 'string' || typeof parsed.text !== 'string') return undefined;
      return {
        id: typeof parsed.id === 'string' ? parsed.id : name.replace(/\.json$/, ''),
        to: parsed.to,
        subject: parsed.subject,
        text: parsed.text,
        ...(typeof parsed.html === 'string' ? { html: parsed.html } : {}),
        sentAt: typeof parsed.sentAt === 'string' ? parsed.sentAt : new Date(0).toISOString(),
      };
    } catch {
      // Removed meanwhile, or not one of ours: skip it.
      return undefined;
    }
  }
}

/** The part of a nodemailer transporter this module uses (a test can pass its own). */
export interface MailTransport {
  sendMail(mail: { from: string; to: string; subject: string; text: string; html?: string }): Promise<unknown>;
  close?(): void;
}

/** Sends through an SMTP server (`SMTP_URL`, e.g. `smtps://user:pass@smtp.example.com:465`). */
export class SmtpMailer implements Mailer {
  private readonly transport: MailTransport;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    transport?: MailTransport,
  ) {
    this.transport = transport ?? nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
    });
  }

  close(): void {
    this.transport.close?.();
  }
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/** SMTP when `SMTP_URL` is set, else the outbox folder in `DATA_DIR`. */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return new OutboxMailer(outboxDir(config.DATA_DIR));
}

/** The logger shape `sendQuietly` needs; a Fastify or pino logger fits. */
export interface MailLog {
  warn: (obj: unknown, msg?: string) => void;
}

/**
 * Sends without ever rejecting, for callers that fire and forget: a failure is logged as a
 * warning (recipient domain, subject and error; never the body, which may hold a code or a link)
 * and the answer is false.
 */
export function sendQuietly(mailer: Mailer, message: MailMessage, log: MailLog): Promise<boolean> {
  const sending = sendLogged(mailer, message, log);
  trackMailWork(mailer, sending);
  return sending;
}

/**
 * The mails `sendQuietly` has on their way, and the work that will send one (`trackMailWork`),
 * per mailer, so that a shutdown can let them go out.
 */
const inFlight = new WeakMap<Mailer, Set<Promise<unknown>>>();

/**
 * Counts `work` (say, an address look-up that ends in a mail, started after the answer) as mail
 * on its way through `mailer` until it settles, so that `drainMail` waits for it too.
 */
export function trackMailWork(mailer: Mailer, work: Promise<unknown>): void {
  let pending = inFlight.get(mailer);
  if (!pending) inFlight.set(mailer, (pending = new Set()));
  pending.add(work);
  void work.finally(() => pending.delete(work)).catch(() => {});
}

/**
 * Waits until every mail `sendQuietly` started through `mailer` has been sent or has failed,
 * for at most `timeoutMs`. Answers how many were still on their way when it stopped waiting.
 */
export async function drainMail(mailer: Mailer, timeoutMs: number): Promise<number> {
  const pending = inFlight.get(mailer);
  if (!pending || pending.size === 0) return 0;
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(() => resolve(void (timedOut = true)), timeoutMs)));
  try {
    // Again while any is left: tracked work may start a send of its own as it ends.
    while (pending.size > 0 && !timedOut) await Promise.race([Promise.allSettled([...pending]), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return pending.size;
}

async function sendLogged(mailer: Mailer, message: MailMessage, log: MailLog): Promise<boolean> {
  try {
    await mailer.send(message);
    return true;
  } catch (err) {
    try {
      const domain = message.to.includes('@') ? message.to.slice(message.to.lastIndexOf('@') + 1) : undefined;
      log.warn({ err, toDomain: domain, subject: message.subject }, 'sending an e-mail failed');
    } catch {
      // A broken logger must not turn into a rejection either.
    }
    return false;
  }
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import nodemailer from 'nodemailer';
import { createMailer, drainMail, OutboxMailer, sendQuietly, SmtpMailer, trackMailWork, type Mailer } from './mailer.js';
import { confirmationMail, emailOtpMail, passwordResetMail, welcomeMail } from './templates.js';

describe('OutboxMailer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'outbox-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes one JSON file per message and lists them newest first', async () => {
    const outbox = new OutboxMailer(path.join(dir, 'outbox'));
    expect(await outbox.list()).toEqual([]);
    for (let i = 1; i <= 5; i++) await outbox.send({ to: `user${i}@example.com`, subject: `Message ${i}`, text: `Body ${i}` });

    const files = (await fs.readdir(path.join(dir, 'outbox'))).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(5);
    const first = JSON.parse(await fs.readFile(path.join(dir, 'outbox', files.sort()[0]!), 'utf8'));
    expect(first).toMatchObject({ to: 'user1@example.com', subject: 'Message 1', text: 'Body 1' });

    const listed = await outbox.list();
    expect(listed.map((m) => m.subject)).toEqual(['Message 5', 'Message 4', 'Message 3', 'Message 2', 'Message 1']);
    expect(new Set(listed.map((m) => m.id)).size).toBe(5);
    for (const m of listed) expect(Number.isNaN(Date.parse(m.sentAt))).toBe(false);
    expect((await outbox.list({ limit: 2 })).map((m) => m.subject)).toEqual(['Message 5', 'Message 4']);
  });

  it('keeps the html part and skips files that are not messages', async () => {
    const outbox = new OutboxMailer(dir);
    await outbox.send({ to: 'a@example.com', subject: 'S', text: 'T', html: '<p>T</p>' });
    await fs.writeFile(path.join(dir, 'zzz-broken.json'), '{ not json');
    const [mail, ...rest] = await outbox.list();
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ to: 'a@example.com', html: '<p>T</p>' });
  });

  it('finds the latest message to an address, case-insensitively', async () => {
    const outbox = new OutboxMailer(dir);
    await outbox.send({ to: 'Alice@Example.com', subject: 'first', text: '1' });
    await outbox.send({ to: 'bob@example.com', subject: 'for bob', text: '2' });
    await outbox.send({ to: 'alice@example.com', subject: 'second', text: '3' });
    await outbox.send({ to: 'carol@example.com', subject: 'for carol', text: '4' });

    expect((await outbox.latestTo('ALICE@example.COM'))?.subject).toBe('second');
    expect((await outbox.latestTo('bob@EXAMPLE.com'))?.subject).toBe('for bob');
    expect(await outbox.latestTo('nobody@example.com')).toBeUndefined();
    expect((await outbox.list({ to: 'alice@example.com' })).map((m) => m.subject)).toEqual(['second', 'first']);
  });
});

describe('sendQuietly', () => {
  it('swallows a failing transport, logs it and answers false', async () => {
    const failing: Mailer = {
      send: async () => {
        throw new Error('connection refused');
      },
    };
    const log = { warn: vi.fn() };
    await expect(
      sendQuietly(failing, { to: 'a@example.com', subject: 'Your verification code', text: 'secret 123456' }, log),
    ).resolves.toBe(false);
    expect(log.warn).toHaveBeenCalledTimes(1);
    const [fields] = log.warn.mock.calls[0]!;
    expect(fields).toMatchObject({ toDomain: 'example.com', subject: 'Your verification code' });
    // The body may hold a code or a link: it is not logged.
    expect(JSON.stringify(log.warn.mock.calls)).not.toContain('123456');
  });

  it('swallows a transport that throws synchronously, and a broken logger', async () => {
    const throwing = {
      send: () => {
        throw new Error('boom');
      },
    } as unknown as Mailer;
    const log = {
      warn: () => {
        throw new Error('logger down');
      },
    };
    await expect(sendQuietly(throwing, { to: 'a@example.com', subject: 's', text: 't' }, log)).resolves.toBe(false);
  });

  it('answers true when the message went out', async () => {
    const sent: string[] = [];
    const mailer: Mailer = {
      send: async (m) => {
        sent.push(m.to);
      },
    };
    await expect(sendQuietly(mailer, { to: 'a@example.com', subject: 's', text: 't' }, { warn: vi.fn() })).resolves.toBe(true);
    expect(sent).toEqual(['a@example.com']);
  });
});

describe('drainMail', () => {
  it('waits for the mails still on their way, failed ones included, and no longer than it is given', async () => {
    const delivered: string[] = [];
    const slow: Mailer = {
      send: (m) =>
        new Promise((resolve, reject) =>
          setTimeout(() => (m.subject === 'fails' ? reject(new Error('smtp down')) : (delivered.push(m.subject), resolve())), 150),
        ),
    };
    expect(await drainMail(slow, 1000)).toBe(0); // nothing sent yet
    void sendQuietly(slow, { to: 'a@example.com', subject: 'one', text: 't' }, { warn: vi.fn() });
    void sendQuietly(slow, { to: 'b@example.com', subject: 'fails', text: 't' }, { warn: vi.fn() });
    expect(await drainMail(slow, 5000)).toBe(0);
    expect(delivered).toEqual(['one']);

    const stuck: Mailer = { send: () => new Promise(() => {}) };
    void sendQuietly(stuck, { to: 'a@example.com', subject: 'never', text: 't' }, { warn: vi.fn() });
    const started = Date.now();
    expect(await drainMail(stuck, 100)).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits for tracked work and for the mail that work sends as it ends (a look-up, then the send)', async () => {
    const delivered: string[] = [];
    const slow: Mailer = { send: (m) => new Promise((resolve) => setTimeout(() => (delivered.push(m.subject), resolve()), 150)) };
    const lookUpThenSend = new Promise<void>((resolve) =>
      setTimeout(() => {
        void sendQuietly(slow, { to: 'a@example.com', subject: 'reset', text: 't' }, { warn: vi.fn() });
        resolve();
      }, 50),
    );
    trackMailWork(slow, lookUpThenSend);
    expect(await drainMail(slow, 5000)).toBe(0);
    expect(delivered).toEqual(['reset']);
  });
});

describe('SmtpMailer and createMailer', () => {
  it('hands the message to nodemailer with MAIL_FROM as sender', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const sendMail = vi.spyOn(transport, 'sendMail');
    const mailer = new SmtpMailer('smtp://localhost:2525', 'Wallet <no-reply@wallet.test>', transport);
    await mailer.send({ to: 'a@example.com', subject: 'Hello', text: 'Plain', html: '<b>Rich</b>' });
    expect(sendMail).toHaveBeenCalledTimes(1);
    const info = (await sendMail.mock.results[0]!.value) as { message: string };
    expect(JSON.parse(info.message)).toMatchObject({
      from: { address: 'no-reply@wallet.test', name: 'Wallet' },
      to: [{ address: 'a@example.com' }],
      subject: 'Hello',
      text: 'Plain',
      html: '<b>Rich</b>',
    });
  });

  it('uses SMTP when SMTP_URL is set and the outbox otherwise', () => {
    const smtp = createMailer({ SMTP_URL: 'smtp://localhost:2525', MAIL_FROM: 'x@y.z', DATA_DIR: '/tmp/x' });
    expect(smtp).toBeInstanceOf(SmtpMailer);
    (smtp as SmtpMailer).close();
    const outbox = createMailer({ SMTP_URL: undefined, MAIL_FROM: 'x@y.z', DATA_DIR: '/tmp/data' });
    expect(outbox).toBeInstanceOf(OutboxMailer);
    expect((outbox as OutboxMailer).dir).toBe(path.join('/tmp/data', 'outbox'));
  });
});

describe('templates', () => {
  it('escapes what the user provided in the HTML and keeps the text plain', () => {
    const mail = confirmationMail(
      'a@example.com',
      '<script>alert("x")</script>',
      'https://wallet.test/auth/v1/verify?type=signup&token=abc',
    );
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).toContain('href="https://wallet.test/auth/v1/verify?type=signup&amp;token=abc"');
    expect(mail.text).toContain('https://wallet.test/auth/v1/verify?type=signup&token=abc');
    expect(mail.text).toContain('Hi <script>alert("x")</script>,');
  });

  it('greets "there" without a name', () => {
    expect(welcomeMail('a@example.com').text).toContain('Hi there,');
    expect(welcomeMail('a@example.com', '  ').text).toContain('Hi there,');
    expect(welcomeMail('a@example.com', 'Ada').subject).toBe('Welcome to your wallet');
    expect(welcomeMail('a@example.com', 'Ada').html).toContain('Hi Ada,');
  });

  it('shows the code and the validity periods', () => {
    const otp = emailOtpMail('a@example.com', '123456');
    expect(otp.subject).toBe('Your verification code');
    expect(otp.text).toContain('123456');
    expect(otp.text).toContain('10 minutes');
    expect(otp.html).toContain('>123456</p>');
    const reset = passwordResetMail('a@example.com', 'https://wallet.test/update-password#type=recovery&token=t');
    expect(reset.subject).toBe('Reset your password');
    expect(reset.text).toContain('1 hour');
    expect(reset.text).toContain('https://wallet.test/update-password#type=recovery&token=t');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mailTo, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';

describe('the welcome mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const welcome = (email: string) => t.app.inject({ method: 'POST', url: '/functions/v1/send-welcome-email', payload: { email, name: 'Wendy' } });
  const welcomes = async (email: string) => (await t.outbox.list({ to: email })).filter((m) => m.subject === 'Welcome to your wallet');

  it('goes out once; a send that failed is tried again by the next call', async () => {
    const email = 'wendy.welcome@example.com';
    const { user } = await registeredCustomer(t, email);
    // The mail server refuses the first welcome mail.
    const mailer = t.app.authServices.mailer;
    const send = mailer.send.bind(mailer);
    let refused = 0;
    mailer.send = async (message) => {
      if (message.subject === 'Welcome to your wallet' && refused++ === 0) throw new Error('mail server unavailable');
      await send(message);
    };
    const key = `welcome:${user.id}`;
    const held = async () => (await t.database.db.selectFrom('mail_sent').select('key').where('key', '=', key).execute()).length;

    expect((await welcome(email)).statusCode).toBe(200);
    for (let deadline = Date.now() + 5000; (await held()) > 0; ) {
      if (Date.now() > deadline) throw new Error('the failed welcome mail still holds its key');
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(refused).toBe(1);
    expect(await welcomes(email)).toHaveLength(0);

    expect((await welcome(email)).statusCode).toBe(200);
    expect((await mailTo(t.outbox, email, /^Welcome to your wallet$/)).text).toContain('Hi Wendy,');
    expect((await welcome(email)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await welcomes(email)).toHaveLength(1);
    expect(await held()).toBe(1);
  });
});

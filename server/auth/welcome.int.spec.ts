import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, mailTo, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';

describe('the welcome mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const welcome = (email: string, token?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/functions/v1/send-welcome-email',
      headers: token ? bearer(token) : {},
      payload: { email, name: '<b>Click here</b> http://evil.example' },
    });
  const welcomes = async (email: string) => (await t.outbox.list({ to: email })).filter((m) => m.subject === 'Welcome to your wallet');

  it("is sent by the server at confirmation, with the account's own name, once", async () => {
    const email = 'wendy.welcome@example.com';
    const session = await registeredCustomer(t, email, 'correct horse 1', 'Wendy Welcome');
    expect((await mailTo(t.outbox, email, /^Welcome to your wallet$/)).text).toContain('Hi Wendy Welcome,');
    // The spec's call (bearer auth) sends no second one and takes no text from its body.
    expect((await welcome(email, session.access_token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const sent = await welcomes(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).not.toContain('evil');
  });

  it('needs a token: nobody mails a text of their choosing to a new account', async () => {
    const email = 'anon.welcome@example.com';
    await registeredCustomer(t, email);
    await mailTo(t.outbox, email, /^Welcome to your wallet$/);
    const anonymous = await welcome(email);
    expect(anonymous.statusCode).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect((await t.outbox.list()).some((m) => m.text.includes('evil.example'))).toBe(false);
  });

  it('that failed to go out is sent again by the call of the signed-in owner', async () => {
    const email = 'retry.welcome@example.com';
    // The mail server refuses the first welcome mail.
    const mailer = t.app.authServices.mailer;
    const send = mailer.send.bind(mailer);
    let refused = 0;
    mailer.send = async (message) => {
      if (message.subject === 'Welcome to your wallet' && refused++ === 0) throw new Error('mail server unavailable');
      await send(message);
    };
    try {
      const { user } = await registeredCustomer(t, email);
      const key = `welcome:${user.id}`;
      const held = async () => (await t.database.db.selectFrom('mail_sent').select('key').where('key', '=', key).execute()).length;
      for (let deadline = Date.now() + 5000; (await held()) > 0 || refused === 0;) {
        if (Date.now() > deadline) throw new Error('the failed welcome mail still holds its key');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await welcomes(email)).toHaveLength(0);
      const session = await signIn(t, email, 'correct horse 1');
      expect((await welcome(email, session.access_token)).statusCode).toBe(200);
      await mailTo(t.outbox, email, /^Welcome to your wallet$/);
      expect(await held()).toBe(1);
    } finally {
      mailer.send = send;
    }
  });
});

import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';

describe('a shutdown while an e-mail is being sent', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.database.close();
    if (t) fs.rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('lets the mail go out before the app has closed', async () => {
    t = await createTestApp();
    const email = 'leaving.soon@example.com';
    await registeredCustomer(t, email);
    // A slow mail server: the reset link takes 400 ms to go out.
    const mailer = t.app.authServices.mailer;
    const send = mailer.send.bind(mailer);
    mailer.send = async (message) => {
      await new Promise((r) => setTimeout(r, 400));
      await send(message);
    };
    const recover = await t.app.inject({ method: 'POST', url: '/auth/v1/recover', payload: { email } });
    expect(recover.json()).toEqual({}); // answered before the mail went out
    // The welcome mail of the confirmation goes out on its own; these two are the ones in question.
    const subjects = async () => (await t!.outbox.list({ to: email })).map((m) => m.subject).filter((s) => !/Welcome/.test(s));
    expect(await subjects()).toHaveLength(1); // only the confirmation so far

    await t.app.close();
    expect(await subjects()).toEqual(['Reset your password', expect.stringMatching(/Confirm/)]);
  });
});

import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';

/** A real PNG of `size` x 1 pixels (grey), padded with a text chunk to about `padTo` bytes. */
function png(padTo = 0): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 128]))),
  ];
  const base = Buffer.concat([...parts, chunk('IEND', Buffer.alloc(0))]).length;
  if (padTo > base + 12) parts.push(chunk('tEXt', Buffer.alloc(padTo - base - 12, 0x61)));
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

describe('crypto buying links', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  let admin: Awaited<ReturnType<typeof signIn>>;
  let worker: Awaited<ReturnType<typeof signIn>>;
  let customer: Awaited<ReturnType<typeof registeredCustomer>>;
  let other: Awaited<ReturnType<typeof registeredCustomer>>;
  const staff = async (role: 'WORKER' | 'ADMIN', email: string) => {
    const { password } = await createStaff(t.app.authServices.accounts, { email, fullName: role, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return signIn(t, email, 'staff-own-pass-1');
  };
  const add = (token: string, body: Record<string, unknown>) =>
    inject({ method: 'POST', url: '/api/v1/buying-links', headers: bearer(token), payload: body });
  const logo = (bytes: Buffer, fileName = 'my logo.png', contentType = 'image/png') => ({
    fileName,
    contentType,
    data: bytes.toString('base64'),
  });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await staff('ADMIN', 'admin@example.com');
    worker = await staff('WORKER', 'worker@example.com');
    customer = await registeredCustomer(t, 'buyer@example.com', 'buyer-pass-12');
    other = await registeredCustomer(t, 'other@example.com', 'other-pass-12');
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  it('a customer sees the three default services and no custom links at first', async () => {
    const res = (await inject({ method: 'GET', url: '/api/v1/buying-links', headers: bearer(customer.access_token) })).json();
    expect(res.defaults.map((d: { name: string }) => d.name)).toEqual(['Coinbase', 'Kraken', 'Binance']);
    expect(res.links).toEqual([]);
  });

  it('the add form is checked in the spec order, with its words, and nothing is stored on a refusal', async () => {
    const base = { userId: customer.user.id, url: 'https://buy.example.com', name: 'Example', logo: logo(png()) };
    const cases: [Record<string, unknown>, string][] = [
      [{ url: '' }, 'Please enter a valid URL'],
      [{ url: 'buy.example.com' }, 'Please enter a valid URL with http:// or https://'],
      [{ url: 'javascript:alert(1)' }, 'Please enter a valid URL with http:// or https://'],
      [{ name: '  ' }, 'Please enter a name for the link'],
      [{ logo: null }, 'Please upload a logo image'],
      [{ logo: logo(Buffer.from('GIF89a not a png at all'), 'fake.png') }, 'Please upload a PNG file only'],
      [{ logo: logo(png(), 'logo.jpg', 'image/jpeg') }, 'Please upload a PNG file only'],
      [{ logo: logo(png(512_000)) }, 'File size should be less than 500KB'],
    ];
    for (const [change, message] of cases) {
      const res = await add(admin.access_token, { ...base, ...change });
      expect([res.statusCode, res.json()]).toEqual([400, { error: message }]);
    }
    const blobs = await t.database.db.selectFrom('blobs').select('id').execute();
    expect(blobs).toHaveLength(0);
  });

  it('staff without access, and customers, cannot add or delete', async () => {
    const asWorker = await add(worker.access_token, { userId: customer.user.id, url: 'https://x.example', name: 'X', logo: logo(png()) });
    expect([asWorker.statusCode, asWorker.json()]).toEqual([
      403,
      { error: 'Access Denied: You do not have permission to view this profile.' },
    ]);
    const asCustomer = await add(customer.access_token, {
      userId: customer.user.id,
      url: 'https://x.example',
      name: 'X',
      logo: logo(png()),
    });
    expect(asCustomer.statusCode).toBe(403);
    const peek = await inject({
      method: 'GET',
      url: `/api/v1/buying-links?userId=${other.user.id}`,
      headers: bearer(customer.access_token),
    });
    expect(peek.statusCode).toBe(403);
  });

  it('an admin adds a link: the customer sees it with its logo, the event names the admin and holds no image bytes; delete removes it', async () => {
    const image = png(2000);
    const res = await add(admin.access_token, {
      userId: customer.user.id,
      url: 'https://buy.example.com/start',
      name: 'Example Exchange',
      logo: logo(image),
    });
    expect(res.statusCode).toBe(200);
    const link = res.json().link;
    expect(link).toMatchObject({ user_id: customer.user.id, url: 'https://buy.example.com/start', name: 'Example Exchange' });

    const mine = (await inject({ method: 'GET', url: '/api/v1/buying-links', headers: bearer(customer.access_token) })).json();
    expect(mine.links.map((l: { id: string }) => l.id)).toEqual([link.id]);
    const img = await inject({ method: 'GET', url: link.logo_url });
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/png']);
    expect(Buffer.compare(img.rawPayload, image)).toBe(0);

    const events = await t.app.ledger.store.readStream(`buying-links-${customer.user.id}`);
    expect(events.map((e) => [e.type, e.metadata.actorRole])).toEqual([['buying-link.added', 'ADMIN']]);
    expect(JSON.stringify(events[0]!.data)).not.toContain(image.toString('base64').slice(0, 40));

    const wrongUser = await inject({
      method: 'DELETE',
      url: `/api/v1/buying-links/${link.id}?userId=${other.user.id}`,
      headers: bearer(admin.access_token),
    });
    expect(wrongUser.statusCode).toBe(404);
    const del = await inject({
      method: 'DELETE',
      url: `/api/v1/buying-links/${link.id}?userId=${customer.user.id}`,
      headers: bearer(admin.access_token),
    });
    expect(del.statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/v1/buying-links', headers: bearer(customer.access_token) })).json().links).toEqual([]);
    const again = await inject({
      method: 'DELETE',
      url: `/api/v1/buying-links/${randomUUID()}?userId=${customer.user.id}`,
      headers: bearer(admin.access_token),
    });
    expect(again.statusCode).toBe(404);
  });

  it('a logo name long enough to be cut inside an emoji is stored whole characters only (the half left was a 500)', async () => {
    // The stored name is `${Date.now()}_${name}` cut to 255 UTF-16 units: 13 digits, '_', then the name.
    const name = `${'a'.repeat(240)}\u{1F9E8}.png`;
    const res = await add(admin.access_token, {
      userId: other.user.id,
      url: 'https://buy.example.com/emoji',
      name: 'Emoji Exchange',
      logo: logo(png(500), name),
    });
    expect(res.statusCode).toBe(200);
    const [event] = await t.app.ledger.store.readStream(`buying-links-${other.user.id}`);
    const stored = (event!.data as { logo: { fileName: string } }).logo.fileName;
    expect(stored).toMatch(/^\d+_a{240}$/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';
import { UPLOAD_TEXT, UPLOADS_PER_MINUTE } from './blob-store.js';

/** A multipart/form-data body with string fields and files, as a browser sends it. */
function multipart(fields: Record<string, string>, files: { field: string; name: string; data: Buffer; type: string }[]) {
  const boundary = '----quota-test-boundary';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
    );
    chunks.push(f.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const KB = 1024;
const text = (bytes: number, fill = 'a') => Buffer.from(fill.repeat(bytes));
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = (bytes: number) =>
  Buffer.concat([
    Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n'),
    Buffer.alloc(bytes, 0x20),
    Buffer.from('\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  ]);
const DETAILS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dob: '1990-12-10',
  country: 'United Kingdom',
  city: 'London',
  postalCode: 'W1 1AA',
  fullAddress: '12 St James Square',
};

describe('upload quota and rate per customer (UPLOAD_QUOTA_MB=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_QUOTA_MB: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  const blobsOf = async (ownerId: string) =>
    (await t.database.db.selectFrom('blobs').select(['id', 'size']).where('owner_id', '=', ownerId).execute()).length;
  const allBlobs = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('blobs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const openTicket = async (token: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/create-support-ticket',
      headers: bearer(token),
      payload: { subject: 'Files', message: 'Here are my files.' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const attach = (token: string, ticketId: string, name: string, data: Buffer) => {
    const body = multipart({ ticketId }, [{ field: 'file', name, data, type: 'text/plain' }]);
    return t.app.inject({
      method: 'POST',
      url: '/functions/v1/upload-ticket-attachment',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
  };

  it('refuses an attachment past the quota with a clear text and stores nothing; another customer is not affected', async () => {
    const c = await registeredCustomer(t, 'quota.full@example.com', 'quota pass 12');
    const ticketId = await openTicket(c.access_token);
    expect((await attach(c.access_token, ticketId, 'one.txt', text(400 * KB))).statusCode).toBe(200);
    expect((await attach(c.access_token, ticketId, 'two.txt', text(400 * KB, 'b'))).statusCode).toBe(200);
    const before = await allBlobs();
    const over = await attach(c.access_token, ticketId, 'three.txt', text(400 * KB, 'c'));
    expect([over.statusCode, over.json()]).toEqual([413, { error: UPLOAD_TEXT.quota(1) }]);
    expect(await allBlobs()).toBe(before);
    expect(await blobsOf(c.user.id)).toBe(2);
    const rows = await t.database.db.selectFrom('ticket_attachments').select('file_name').where('ticket_id', '=', ticketId).execute();
    expect(rows.map((r) => r.file_name).sort()).toEqual(['one.txt', 'two.txt']);

    const other = await registeredCustomer(t, 'quota.other@example.com', 'quota pass 34');
    const otherTicket = await openTicket(other.access_token);
    expect((await attach(other.access_token, otherTicket, 'fine.txt', text(400 * KB))).statusCode).toBe(200);
  });

  it('counts KYC documents against the same quota: a submission past it is refused and keeps neither file', async () => {
    const c = await registeredCustomer(t, 'quota.kyc@example.com', 'quota pass 56');
    const ticketId = await openTicket(c.access_token);
    expect((await attach(c.access_token, ticketId, 'big.txt', text(700 * KB))).statusCode).toBe(200);
    const before = await allBlobs();
    const body = multipart({ basicDetails: JSON.stringify(DETAILS) }, [
      { field: 'identityDoc', name: 'passport.png', data: PNG, type: 'image/png' },
      { field: 'residenceDoc', name: 'bill.pdf', data: PDF(400 * KB), type: 'application/pdf' },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/functions/v1/submit-kyc-data',
      headers: { ...body.headers, ...bearer(c.access_token) },
      payload: body.payload,
    });
    expect([res.statusCode, res.json()]).toEqual([413, { error: UPLOAD_TEXT.quota(1) }]);
    expect(await allBlobs()).toBe(before);
    const profile = await t.database.db
      .selectFrom('user_profiles')
      .select('kyc_status')
      .where('user_id', '=', c.user.id)
      .executeTakeFirstOrThrow();
    expect(profile.kyc_status).toBe('not_started');
  });

  it('refuses uploads past the per-customer rate and stores nothing for them', async () => {
    const c = await registeredCustomer(t, 'quota.rate@example.com', 'quota pass 78');
    const ticketId = await openTicket(c.access_token);
    const codes: number[] = [];
    for (let i = 0; i <= UPLOADS_PER_MINUTE; i++)
      codes.push((await attach(c.access_token, ticketId, `n${i}.txt`, text(100, String.fromCharCode(97 + (i % 26))))).statusCode);
    expect(codes.slice(0, UPLOADS_PER_MINUTE).every((code) => code === 200)).toBe(true);
    expect(codes[UPLOADS_PER_MINUTE]).toBe(429);
    const last = await attach(c.access_token, ticketId, 'late.txt', text(100));
    expect([last.statusCode, last.json()]).toEqual([429, { error: UPLOAD_TEXT.rate }]);
    expect(await blobsOf(c.user.id)).toBe(UPLOADS_PER_MINUTE);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, bearer, ipFor, registeredCustomer, signIn, type TestApp } from '../../../tests/support/test-app.js';
import { createStaff } from '../../auth/staff-accounts.js';
import { DocumentLinks } from '../../kyc/document-links.js';

const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const EXE = Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, ...new Array(64).fill(0)]);

const DETAILS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dob: '1990-12-10',
  country: 'United Kingdom',
  city: 'London',
  postalCode: 'W1 1AA',
  fullAddress: '12 St James Square',
};

type Part = { name: string; value: string } | { name: string; fileName: string; data: Buffer; type?: string };

/** A multipart/form-data body as a browser would send it. */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----kyc-test-boundary-7d1';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in p) chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    else {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const standard = (overrides: { details?: unknown; identity?: Part | null; residence?: Part | null } = {}): Part[] =>
  [
    { name: 'basicDetails', value: JSON.stringify(overrides.details ?? DETAILS) },
    overrides.identity === undefined ? { name: 'identityDoc', fileName: 'passport.png', data: PNG, type: 'image/png' } : overrides.identity,
    overrides.residence === undefined
      ? { name: 'residenceDoc', fileName: 'utility-bill.pdf', data: PDF, type: 'application/pdf' }
      : overrides.residence,
  ].filter((p): p is Part => p !== null);

describe('KYC: submission, staff review, signed document links', () => {
  let t: TestApp;
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const submit = (token: string, parts: Part[]) => {
    const body = multipart(parts);
    return inject({
      method: 'POST',
      url: '/functions/v1/submit-kyc-data',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  };
  const status = async (userId: string) =>
    (await t.database.db.selectFrom('user_profiles').select('kyc_status').where('user_id', '=', userId).executeTakeFirstOrThrow())
      .kyc_status;
  const blobCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('blobs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string) => {
    const { password } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} One`, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return signIn(t, email, 'staff-own-pass-1');
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a bad submission with a clear 4xx and stores nothing: missing document, wrong type, disguised file, empty field, over 10 MB', async () => {
    const c = await registeredCustomer(t, 'refused-kyc@example.com', 'refused-pass-1');
    const before = await blobCount();
    const cases: [Part[], number, string][] = [
      [standard({ residence: null }), 400, 'Required documents are missing.'],
      [
        standard({ identity: { name: 'identityDoc', fileName: 'setup.exe', data: EXE } }),
        400,
        'Format not supported: .EXE. Supported formats: PDF, JPEG, JPG, PNG.',
      ],
      [
        standard({ identity: { name: 'identityDoc', fileName: 'passport.png', data: EXE, type: 'image/png' } }),
        400,
        'File "passport.png" is not a valid PDF, JPEG or PNG file.',
      ],
      [standard({ details: { ...DETAILS, city: '  ' } }), 400, 'This field is required: City.'],
      [standard({ details: { ...DETAILS, dob: '2999-01-01' } }), 400, 'Date of Birth must be a valid past date.'],
      [
        standard({ residence: { name: 'residenceDoc', fileName: 'big.pdf', data: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]) } }),
        413,
        'File "big.pdf" is too large. Maximum size is 10MB.',
      ],
    ];
    for (const [parts, code, error] of cases) {
      const res = await submit(c.access_token, parts);
      expect([res.statusCode, res.json()]).toEqual([code, { error }]);
    }
    const notMultipart = await inject({
      method: 'POST',
      url: '/functions/v1/submit-kyc-data',
      headers: bearer(c.access_token),
      payload: { basicDetails: DETAILS },
    });
    expect(notMultipart.statusCode).toBe(400);
    expect(await blobCount()).toBe(before);
    expect(await status(c.user.id)).toBe('not_started');
    expect((await t.app.ledger.store.readStream(`user-${c.user.id}`)).some((e) => e.type === 'user.kyc-submitted')).toBe(false);
  });

  it('a customer submits details and two documents: status pending, files in the blob store, only references in the event; a second submission is refused', async () => {
    const c = await registeredCustomer(t, 'kyc-ada@example.com', 'kyc-ada-pass-1');
    const res = await submit(c.access_token, standard());
    expect([res.statusCode, res.json()]).toEqual([200, { success: true, kyc_status: 'pending' }]);
    expect(await status(c.user.id)).toBe('pending');
    const profile = await inject({
      method: 'POST',
      url: '/functions/v1/get-user-profile-details',
      headers: bearer(c.access_token),
      payload: { targetUserId: c.user.id },
    });
    expect(profile.json()).toMatchObject({ kyc_status: 'pending', first_name: 'Ada', city: 'London', postal_code: 'W1 1AA' });

    const [event] = (await t.app.ledger.store.readStream(`user-${c.user.id}`)).filter((e) => e.type === 'user.kyc-submitted');
    expect(event!.metadata).toMatchObject({ actorId: c.user.id, actorRole: 'USER' });
    const data = event!.data as {
      identityDoc: { blobId: string; contentType: string };
      residenceDoc: { blobId: string; contentType: string };
    };
    expect([data.identityDoc.contentType, data.residenceDoc.contentType]).toEqual(['image/png', 'application/pdf']);
    expect(JSON.stringify(event!.data)).not.toContain('%PDF');
    expect((await t.app.blobs.get(data.residenceDoc.blobId))!.data.equals(PDF)).toBe(true);

    const again = await submit(c.access_token, standard());
    expect([again.statusCode, again.json()]).toEqual([409, { error: 'Your verification is already under review.' }]);
  });

  it('staff: only those who manage the customer read the details; a signed link streams the file once per opening, recorded with the staff member; approval names the approver', async () => {
    const c = await registeredCustomer(t, 'kyc-grace@example.com', 'kyc-grace-pass-1');
    expect((await submit(c.access_token, standard())).statusCode).toBe(200);
    const worker = await staffSession('WORKER', 'kyc-worker@example.com');
    const details = () =>
      inject({
        method: 'POST',
        url: '/functions/v1/get-kyc-details',
        headers: bearer(worker.access_token),
        payload: { targetUserId: c.user.id },
      });

    expect([(await details()).statusCode, (await details()).json()]).toEqual([
      403,
      { error: 'Access Denied: You do not have permission to view this profile.' },
    ]);
    const asCustomer = await inject({
      method: 'POST',
      url: '/functions/v1/approve-kyc',
      headers: bearer(c.access_token),
      payload: { targetUserId: c.user.id },
    });
    expect([asCustomer.statusCode, asCustomer.json()]).toEqual([403, { error: 'Access Denied: Your role cannot view user profiles.' }]);
    expect(await status(c.user.id)).toBe('pending');

    await t.app.authServices.accounts.record(
      c.user.id,
      { type: 'Claim', workerId: worker.user.id },
      { id: worker.user.id, role: 'WORKER' },
    );
    const res = await details();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      kyc_status: 'pending',
      first_name: 'Ada',
      last_name: 'Lovelace',
      dob: '1990-12-10',
      identity_doc_path: 'passport.png',
      residence_doc_path: 'utility-bill.pdf',
    });

    const opened = await inject({ method: 'GET', url: body.residenceDocSignedUrl });
    expect([opened.statusCode, opened.headers['content-type'], opened.headers['cache-control']]).toEqual([
      200,
      'application/pdf',
      'private, no-store',
    ]);
    expect(opened.rawPayload.equals(PDF)).toBe(true);
    expect((await inject({ method: 'GET', url: body.identityDocSignedUrl })).headers['content-type']).toBe('image/png');
    const views = (await t.app.ledger.store.readStream(`user-${c.user.id}`)).filter((e) => e.type === 'user.kyc-document-viewed');
    expect(views.map((v) => [(v.data as { document: string }).document, v.metadata.actorId])).toEqual([
      ['residence', worker.user.id],
      ['identity', worker.user.id],
    ]);

    // A link cannot be altered, and stops working after a few minutes.
    const token = new URL(body.residenceDocSignedUrl, 'http://x').searchParams.get('token')!;
    const [payload, signature] = token.split('.');
    const widened = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), exp: Date.now() + 86_400_000 }),
    ).toString('base64url');
    const tampered = await inject({ method: 'GET', url: `/api/v1/kyc-documents?token=${widened}.${signature}` });
    expect([tampered.statusCode, tampered.json()]).toEqual([403, { error: 'This document link is invalid or has expired.' }]);
    const links = new DocumentLinks(t.app.authServices.dataKey);
    expect(links.open(token)).not.toBeNull();
    expect(links.open(token, Date.now() + 6 * 60_000)).toBeNull();

    const approve = await inject({
      method: 'POST',
      url: '/functions/v1/approve-kyc',
      headers: bearer(worker.access_token),
      payload: { targetUserId: c.user.id },
    });
    expect([approve.statusCode, approve.json()]).toEqual([200, { success: true, kyc_status: 'verified' }]);
    expect(await status(c.user.id)).toBe('verified');
    const [approved] = (await t.app.ledger.store.readStream(`user-${c.user.id}`)).filter((e) => e.type === 'user.kyc-approved');
    expect(approved!.metadata).toMatchObject({ actorId: worker.user.id, actorRole: 'WORKER' });
    const twice = await inject({
      method: 'POST',
      url: '/functions/v1/approve-kyc',
      headers: bearer(worker.access_token),
      payload: { targetUserId: c.user.id },
    });
    expect(twice.statusCode).toBe(200);
    expect((await t.app.ledger.store.readStream(`user-${c.user.id}`)).filter((e) => e.type === 'user.kyc-approved')).toHaveLength(1);
    const verifiedAgain = await submit(c.access_token, standard());
    expect([verifiedAgain.statusCode, verifiedAgain.json()]).toEqual([409, { error: 'Your identity is already verified.' }]);
  });

  it('a rejected customer may submit again; staff see "not started" for a customer who never submitted', async () => {
    const c = await registeredCustomer(t, 'kyc-retry@example.com', 'kyc-retry-pass-1');
    const admin = await staffSession('ADMIN', 'kyc-admin@example.com');
    const fresh = await inject({
      method: 'POST',
      url: '/functions/v1/get-kyc-details',
      headers: bearer(admin.access_token),
      payload: { targetUserId: c.user.id },
    });
    expect(fresh.json()).toMatchObject({
      kyc_status: 'not_started',
      first_name: null,
      identityDocSignedUrl: null,
      residenceDocSignedUrl: null,
    });

    expect((await submit(c.access_token, standard())).statusCode).toBe(200);
    await t.app.authServices.accounts.record(
      c.user.id,
      { type: 'RejectKyc', reason: 'Blurred scan' },
      { id: admin.user.id, role: 'ADMIN' },
    );
    expect(await status(c.user.id)).toBe('rejected');
    const retry = await submit(
      c.access_token,
      standard({ details: { ...DETAILS, city: 'Paris' }, identity: { name: 'identityDoc', fileName: 'id.jpg.pdf', data: PDF } }),
    );
    expect(retry.statusCode).toBe(200);
    const after = await inject({
      method: 'POST',
      url: '/functions/v1/get-kyc-details',
      headers: bearer(admin.access_token),
      payload: { targetUserId: c.user.id },
    });
    expect(after.json()).toMatchObject({ kyc_status: 'pending', city: 'Paris', identity_doc_path: 'id.jpg.pdf' });
  });
});

describe("login history (get-login-history, without targetUserId: the caller's own)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("a customer reads their own sign-ins five at a time, newest first, and no one else's", async () => {
    const c = await registeredCustomer(t, 'history@example.com', 'history-pass-1');
    // The server records each sign-in with the browser of the sign-in itself.
    for (let i = 0; i < 6; i++) {
      const s = await t.app.inject({
        method: 'POST',
        url: '/auth/v1/token?grant_type=password',
        remoteAddress: ipFor('history@example.com'),
        headers: { 'user-agent': `Browser ${i}` },
        payload: { email: 'history@example.com', password: 'history-pass-1' },
      });
      expect(s.statusCode, s.body).toBe(200);
    }
    const page = (n: number) =>
      t.app.inject({ method: 'GET', url: `/functions/v1/get-login-history?page=${n}&pageSize=5`, headers: bearer(c.access_token) });
    const first = (await page(1)).json() as { timestamp: string; user_agent: string; ip_address: string | null }[];
    expect(first).toHaveLength(5);
    expect(first[0]!.user_agent).toBe('Browser 5');
    expect([...first].sort((a, b) => b.timestamp.localeCompare(a.timestamp))).toEqual(first);
    // Then Browser 0 and registeredCustomer's own sign-in.
    expect(((await page(2)).json() as { user_agent: string }[]).map((e) => e.user_agent)).toEqual(['Browser 0', 'lightMyRequest']);
    // Naming oneself is the same call; the spec's defaults page five at a time.
    const named = await t.app.inject({
      method: 'GET',
      url: `/functions/v1/get-login-history?targetUserId=${c.user.id}`,
      headers: bearer(c.access_token),
    });
    expect(named.json()).toEqual(first);

    const other = await registeredCustomer(t, 'nosy@example.com', 'nosy-pass-12');
    const theirs = await t.app.inject({ method: 'GET', url: '/functions/v1/get-login-history', headers: bearer(other.access_token) });
    expect((theirs.json() as { user_agent: string }[]).some((r) => r.user_agent?.startsWith('Browser'))).toBe(false);
    const prying = await t.app.inject({
      method: 'GET',
      url: `/functions/v1/get-login-history?targetUserId=${c.user.id}`,
      headers: bearer(other.access_token),
    });
    expect([prying.statusCode, prying.json()]).toEqual([403, { error: 'Access Denied: Your role cannot view user profiles.' }]);
    expect((await t.app.inject({ method: 'GET', url: '/functions/v1/get-login-history' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/login-history', headers: bearer(c.access_token) })).statusCode).toBe(404);
  });
});

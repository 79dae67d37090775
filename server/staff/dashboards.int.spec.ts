import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, bearer, registeredCustomer, signIn, solveCaptcha, type TestApp } from '../../tests/support/test-app.js';
import { createStaff } from '../auth/staff-accounts.js';

type Session = Awaited<ReturnType<typeof signIn>>;

describe('staff dashboards: ownership, workers, announcements', () => {
  let t: TestApp;
  let base: string;
  const post = (url: string, token: string | null, payload: Record<string, unknown> = {}) =>
    t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

  /** A staff account made by an operator, its one-time password already replaced. */
  const operatorStaff = async (role: 'MANAGER' | 'ADMIN', email: string) => {
    const { password } = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} ${email}`, role });
    const first = await signIn(t, email, password);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'staff-own-pass-1' },
    });
    return signIn(t, email, 'staff-own-pass-1');
  };
  /** A worker created by a manager through the dashboard, who then sets a password of their own. */
  const managedWorker = async (manager: Session, email: string, fullName: string) => {
    const created = await post('/functions/v1/create-worker-for-manager', manager.access_token, {
      fullName,
      email,
      password: 'given-by-manager-1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const first = await signIn(t, email, 'given-by-manager-1');
    expect(first.user.user_metadata.requires_password_change).toBe(true);
    // A new account: told to choose a password of their own, not that it "was reset".
    expect(first.user.user_metadata.password_change_reason).toBe('new_account');
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(first.access_token),
      payload: { password: 'worker-own-pass-1' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    return signIn(t, email, 'worker-own-pass-1');
  };

  let m1: Session, m2: Session, w1: Session, w2: Session, admin: Session, c1: Session, c2: Session;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    m1 = await operatorStaff('MANAGER', 'mona@example.com');
    m2 = await operatorStaff('MANAGER', 'max@example.com');
    admin = await operatorStaff('ADMIN', 'ada@example.com');
    w1 = await managedWorker(m1, 'wes@example.com', 'Wes Worker');
    w2 = await managedWorker(m2, 'wanda@example.com', 'Wanda Worker');
    c1 = await registeredCustomer(t, 'carol@example.com', 'carol-pass-1', 'Carol Customer');
    c2 = await registeredCustomer(t, 'dave@example.com', 'dave-pass-12', 'Dave Customer');
  });
  afterAll(async () => {
    await t.close();
  });

  it('create-worker-for-manager checks the fields with the spec texts, assigns the worker to the manager and records who did it', async () => {
    const missing = await post('/functions/v1/create-worker-for-manager', m1.access_token, {
      fullName: 'X',
      email: 'x@example.com',
      password: '',
    });
    expect([missing.statusCode, missing.json()]).toEqual([400, { error: 'Please fill in all fields.' }]);
    const short = await post('/functions/v1/create-worker-for-manager', m1.access_token, {
      fullName: 'X',
      email: 'x@example.com',
      password: 'seven77',
    });
    expect([short.statusCode, short.json()]).toEqual([400, { error: 'Password must be at least 8 characters long.' }]);
    const taken = await post('/functions/v1/create-worker-for-manager', m1.access_token, {
      fullName: 'X',
      email: 'CAROL@example.com',
      password: 'long-enough-1',
    });
    expect([taken.statusCode, taken.json()]).toEqual([
      409,
      { error: 'A user with this email already exists. Please try a different email.' },
    ]);
    const asWorker = await post('/functions/v1/create-worker-for-manager', w1.access_token, {
      fullName: 'X',
      email: 'x@example.com',
      password: 'long-enough-1',
    });
    expect(asWorker.statusCode).toBe(403);
    expect(await t.app.authServices.accounts.findByEmail('x@example.com')).toBeUndefined();

    const events = await t.app.ledger.store.readStream(`user-${w1.user.id}`);
    const assigned = events.find((e) => e.type === 'user.worker-assigned')!;
    expect(assigned.data).toEqual({ managerId: m1.user.id });
    expect(assigned.metadata).toMatchObject({ actorId: m1.user.id, actorRole: 'MANAGER' });
    expect(events.some((e) => JSON.stringify(e.data).includes('given-by-manager-1'))).toBe(false);

    const workers = await post('/api/v1/rpc/get_worker_info', m1.access_token, { p_manager_id: m1.user.id });
    expect(workers.json()).toEqual([{ id: w1.user.id, full_name: 'Wes Worker', email: 'wes@example.com' }]);
    expect((await post('/api/v1/rpc/get_worker_info', m1.access_token, { p_manager_id: m2.user.id })).statusCode).toBe(403);
  });

  it('a worker finds a customer by exact e-mail and claims them; a second claim by another worker is 409 with the spec text', async () => {
    const empty = await post('/functions/v1/search-user-by-email', w1.access_token, { emailToSearch: '  ' });
    expect([empty.statusCode, empty.json()]).toEqual([400, { error: 'Please enter an email address.' }]);
    expect((await post('/functions/v1/search-user-by-email', w1.access_token, { emailToSearch: 'carol@' })).json()).toEqual({
      user: null,
      message: 'User not found.',
    });
    // Staff accounts are not customers to claim.
    expect(
      (await post('/functions/v1/search-user-by-email', w1.access_token, { emailToSearch: 'max@example.com' })).json().user,
    ).toBeNull();
    const found = await post('/functions/v1/search-user-by-email', w1.access_token, { emailToSearch: 'Carol@Example.com' });
    expect(found.json()).toEqual({ user: { id: c1.user.id, email: 'carol@example.com', role: 'USER' } });
    expect((await post('/functions/v1/search-user-by-email', c2.access_token, { emailToSearch: 'carol@example.com' })).statusCode).toBe(
      403,
    );

    const claim = await post('/functions/v1/claim-user', w1.access_token, { userIdToClaim: c1.user.id });
    expect([claim.statusCode, claim.json()]).toEqual([200, { success: true, message: 'User successfully claimed!' }]);
    const again = await post('/functions/v1/claim-user', w2.access_token, { userIdToClaim: c1.user.id });
    expect([again.statusCode, again.json()]).toEqual([
      409,
      { error: 'Cannot claim user: User may already be assigned or is not claimable.' },
    ]);
    const staffClaim = await post('/functions/v1/claim-user', w2.access_token, { userIdToClaim: m1.user.id });
    expect(staffClaim.statusCode).toBe(409);
    expect((await post('/functions/v1/claim-user', w2.access_token, { userIdToClaim: c2.user.id })).statusCode).toBe(200);

    const claimed = (await t.app.ledger.store.readStream(`user-${c1.user.id}`)).filter((e) => e.type === 'user.claimed');
    expect(claimed.map((e) => [e.data, e.metadata.actorId])).toEqual([[{ workerId: w1.user.id }, w1.user.id]]);
    const mine = await post('/functions/v1/list-my-users', w1.access_token);
    expect(mine.json().ownedUsers).toEqual([
      { user_email: 'carol@example.com', profile_user_id: c1.user.id, profile_created_at: expect.any(String) },
    ]);
  });

  it('a worker reaches only their own customers: every staff call about another worker\u2019s customer is refused', async () => {
    const target = c2.user.id; // owned by w2
    for (const url of ['/functions/v1/ban-user', '/functions/v1/unban-user']) {
      const res = await post(url, w1.access_token, { targetUserId: target });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        403,
        { error: 'Access Denied: You do not have permission to view this profile.' },
      ]);
    }
    expect((await post('/functions/v1/claim-user', w1.access_token, { userIdToClaim: target })).statusCode).toBe(409);
    expect((await post('/functions/v1/check-user-ownership', w1.access_token, { profileUserId: target })).json()).toEqual({
      isOwner: false,
    });
    expect((await post('/functions/v1/check-user-ownership', w1.access_token, { profileUserId: c1.user.id })).json()).toEqual({
      isOwner: true,
    });
    expect((await post('/functions/v1/check-manager-user-access', w1.access_token, { targetUserId: c1.user.id })).json()).toEqual({
      isAuthorized: false,
    });
    for (const [url, body] of [
      ['/functions/v1/get-users-for-manager', {}],
      ['/functions/v1/reset-worker-password', { workerId: w2.user.id }],
      ['/api/v1/rpc/get_worker_info', { p_manager_id: m2.user.id }],
      ['/api/v1/rpc/get_worker_manager', { p_worker_id: w2.user.id }],
      ['/api/v1/rpc/create_announcement', { p_manager_id: m1.user.id, p_message: 'hi' }],
    ] as const) {
      expect([url, (await post(url, w1.access_token, body)).statusCode]).toEqual([url, 403]);
    }
    expect((await get(`/api/v1/announcements?manager_id=${m2.user.id}`, w1.access_token)).statusCode).toBe(403);
    const customer = await post('/functions/v1/check-user-ownership', c1.access_token, { profileUserId: c1.user.id });
    expect([customer.statusCode, customer.json()]).toEqual([403, { error: 'Access Denied: Your role cannot view user profiles.' }]);
    const row = await t.database.db
      .selectFrom('user_profiles')
      .select('assigned_worker_id')
      .where('user_id', '=', target)
      .executeTakeFirstOrThrow();
    expect(row.assigned_worker_id).toBe(w2.user.id);
  });

  it('a manager reaches only the customers of their own workers; an admin reaches everyone', async () => {
    const list = await post('/functions/v1/get-users-for-manager', m1.access_token, { page: 1, perPage: 10, searchQuery: '' });
    expect(list.json()).toEqual({
      users: [
        {
          id: c1.user.id,
          full_name: 'Carol Customer',
          email: 'carol@example.com',
          kyc_status: 'not_started',
          created_at: expect.any(String),
          assigned_worker_name: 'Wes Worker',
        },
      ],
      totalCount: 1,
    });
    expect((await post('/functions/v1/get-users-for-manager', m1.access_token, { searchQuery: 'dave' })).json()).toEqual({
      users: [],
      totalCount: 0,
    });
    expect((await post('/functions/v1/get-users-for-manager', m1.access_token, { searchQuery: 'CAROL c' })).json().totalCount).toBe(1);
    expect((await post('/functions/v1/get-users-for-manager', m1.access_token, { searchQuery: '%' })).json().totalCount).toBe(0);
    expect((await post('/functions/v1/check-manager-user-access', m1.access_token, { targetUserId: c1.user.id })).json()).toEqual({
      isAuthorized: true,
    });
    expect((await post('/functions/v1/check-manager-user-access', m1.access_token, { targetUserId: c2.user.id })).json()).toEqual({
      isAuthorized: false,
    });
    expect((await post('/functions/v1/ban-user', m1.access_token, { targetUserId: c2.user.id })).statusCode).toBe(403);
    expect((await post('/functions/v1/reset-worker-password', m1.access_token, { workerId: w2.user.id })).statusCode).toBe(403);

    expect((await post('/functions/v1/check-manager-user-access', admin.access_token, { targetUserId: c2.user.id })).json()).toEqual({
      isAuthorized: true,
    });
    expect((await post('/functions/v1/get-users-for-manager', admin.access_token, {})).json().totalCount).toBe(2);
  });

  it('an announcement reaches the manager\u2019s workers live, newest first, and no one else', async () => {
    const connect = async (token: string) => {
      const socket = new WebSocket(`${base}/realtime/v1?token=${encodeURIComponent(token)}`);
      const messages: { topic?: string; payload?: unknown; type?: string }[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
      await new Promise((resolve) => socket.once('open', resolve));
      await expect.poll(() => messages.some((m) => m.type === 'ready')).toBe(true);
      return { socket, messages };
    };
    const mine = await connect(w1.access_token);
    const other = await connect(w2.access_token);
    expect((await post('/api/v1/rpc/get_worker_manager', w1.access_token, { p_worker_id: w1.user.id })).json()).toEqual({
      managerId: m1.user.id,
    });

    const blank = await post('/api/v1/rpc/create_announcement', m1.access_token, { p_manager_id: m1.user.id, p_message: '   ' });
    expect(blank.statusCode).toBe(400);
    for (const text of ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth']) {
      const sent = await post('/api/v1/rpc/create_announcement', m1.access_token, { p_manager_id: m1.user.id, p_message: text });
      expect(sent.statusCode, sent.body).toBe(201);
    }
    await expect.poll(() => mine.messages.filter((m) => m.topic === 'announcements').length).toBeGreaterThan(0);
    const latest = (await get(`/api/v1/announcements?manager_id=${m1.user.id}`, w1.access_token)).json() as {
      message: string;
      manager_id: string;
    }[];
    expect(latest.map((a) => a.message)).toEqual(['Sixth', 'Fifth', 'Fourth', 'Third', 'Second']);
    expect(other.messages.some((m) => m.topic === 'announcements')).toBe(false);
    const stream = await t.app.ledger.store.readStream(`announcements-${m1.user.id}`);
    expect(stream).toHaveLength(6);
    expect(stream[0]!.metadata).toMatchObject({ actorId: m1.user.id, actorRole: 'MANAGER' });
    expect(
      (await post('/api/v1/rpc/create_announcement', m2.access_token, { p_manager_id: m1.user.id, p_message: 'spoof' })).statusCode,
    ).toBe(403);
    mine.socket.close();
    other.socket.close();
  });

  it('reset-worker-password returns a temporary password once and forces a change at sign-in', async () => {
    const reset = await post('/functions/v1/reset-worker-password', m1.access_token, { workerId: w1.user.id });
    expect(reset.statusCode).toBe(200);
    const temporary = reset.json().temporaryPassword as string;
    expect(temporary.length).toBeGreaterThanOrEqual(8);
    // The old sessions end and the old password no longer works.
    expect((await post('/functions/v1/list-my-users', w1.access_token)).statusCode).toBe(401);
    await expect(signIn(t, 'wes@example.com', 'worker-own-pass-1')).rejects.toThrow(/invalid/);
    // After a wrong password the next sign-ins need the captcha.
    const withTemporary = await signIn(t, 'wes@example.com', temporary, await solveCaptcha(t.app));
    expect(withTemporary.user.user_metadata.requires_password_change).toBe(true);
    expect(withTemporary.user.user_metadata.password_change_reason).toBe('reset');
    const blocked = await post('/functions/v1/list-my-users', withTemporary.access_token);
    expect([blocked.statusCode, blocked.json().code]).toEqual([403, 'password_change_required']);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/auth/v1/user',
      headers: bearer(withTemporary.access_token),
      payload: { password: 'worker-new-pass-2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = await signIn(t, 'wes@example.com', 'worker-new-pass-2', await solveCaptcha(t.app));
    expect(fresh.user.user_metadata.requires_password_change).toBe(false);
    expect(fresh.user.user_metadata).not.toHaveProperty('password_change_reason');
    expect((await post('/functions/v1/list-my-users', fresh.access_token)).json().ownedUsers).toHaveLength(1);
    const events = await t.app.ledger.store.readStream(`user-${w1.user.id}`);
    expect(events.some((e) => JSON.stringify([e.data, e.metadata]).includes(temporary))).toBe(false);
    expect(events.filter((e) => e.type === 'user.password-change-required').at(-2)?.metadata).toMatchObject({ actorId: m1.user.id });
  });

  it('My Workers and My Users page on the server: page 2 holds the rest and the total counts them all', async () => {
    const m3 = await operatorStaff('MANAGER', 'mia@example.com');
    const w3 = await managedWorker(m3, 'wyn@example.com', 'Wyn Worker');
    for (const [email, fullName] of [
      ['will@example.com', 'Will Worker'],
      ['wade@example.com', 'Wade Worker'],
    ]) {
      expect(
        (await post('/functions/v1/create-worker-for-manager', m3.access_token, { fullName, email, password: 'given-by-manager-1' }))
          .statusCode,
      ).toBe(201);
    }
    const workers = (paging: Record<string, unknown>) =>
      post('/api/v1/rpc/get_worker_info', m3.access_token, { p_manager_id: m3.user.id, ...paging });
    const names = (res: Awaited<ReturnType<typeof post>>) => (res.json() as { full_name: string }[]).map((w) => w.full_name);
    const [first, second, past, whole] = await Promise.all([
      workers({ p_page: 1, p_page_size: 2 }),
      workers({ p_page: 2, p_page_size: 2 }),
      workers({ p_page: 3, p_page_size: 2 }),
      workers({}),
    ]);
    expect(names(first)).toEqual(['Wade Worker', 'Will Worker']);
    expect(names(second)).toEqual(['Wyn Worker']);
    expect(names(past)).toEqual([]);
    expect(names(whole)).toEqual(['Wade Worker', 'Will Worker', 'Wyn Worker']);
    expect([first, second, past, whole].map((r) => r.headers['x-total-count'])).toEqual(['3', '3', '3', '3']);
    expect(names(await workers({ p_page: 1 }))).toEqual(['Wade Worker', 'Will Worker', 'Wyn Worker']);
    for (const bad of [{ p_page: 0 }, { p_page_size: 0 }, { p_page_size: 101 }]) expect((await workers(bad)).statusCode).toBe(400);

    for (const name of ['erin', 'finn', 'gail']) {
      const customer = await registeredCustomer(t, `${name}@example.com`, `${name}-pass-12`, `${name} Customer`);
      expect((await post('/functions/v1/claim-user', w3.access_token, { userIdToClaim: customer.user.id })).statusCode).toBe(200);
    }
    const users = async (paging: Record<string, unknown>) => {
      const res = await post('/functions/v1/list-my-users', w3.access_token, paging);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { ownedUsers: { user_email: string }[]; totalCount: number };
    };
    const all = await users({});
    expect(all.ownedUsers.map((u) => u.user_email).sort()).toEqual(['erin@example.com', 'finn@example.com', 'gail@example.com']);
    expect(all.totalCount).toBe(3);
    const [page1, page2] = await Promise.all([users({ page: 1, pageSize: 2 }), users({ page: 2, pageSize: 2 })]);
    expect([page1.ownedUsers.length, page2.ownedUsers.length]).toEqual([2, 1]);
    expect([...page1.ownedUsers, ...page2.ownedUsers]).toEqual(all.ownedUsers);
    expect([page1.totalCount, page2.totalCount]).toEqual([3, 3]);
    expect((await post('/functions/v1/list-my-users', w3.access_token, { pageSize: 101 })).statusCode).toBe(400);
    // The spec's call carries no payload at all: every owned user.
    const bare = await t.app.inject({ method: 'POST', url: '/functions/v1/list-my-users', headers: bearer(w3.access_token) });
    expect([bare.statusCode, bare.json().totalCount]).toEqual([200, 3]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bearer, createTestApp, registeredCustomer, signIn, type TestApp } from '../../tests/support/test-app.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';
import type { AccessClaims } from '../auth/sessions.js';
import { sweepEndedSessions } from './routes.js';
import { isTopic, ServerMessage, TOPIC_PAYLOADS } from '../../ledger/contract/realtime.js';

/** The close code, once the socket closes (rejects after `ms`). */
function closed(socket: WebSocket, ms = 2000): Promise<number> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.reject(new Error('already closed'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('still open')), ms);
    socket.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Every message a test's socket received that the realtime contract does not describe. */
const offContract: unknown[] = [];
let checked = 0;
function checkContract(m: unknown): void {
  checked++;
  const message = ServerMessage.safeParse(m);
  const described =
    message.success &&
    (message.data.type !== 'event' ||
      (isTopic(message.data.topic) && TOPIC_PAYLOADS[message.data.topic].safeParse(message.data.payload).success));
  if (!described) offContract.push(m);
}

/** Collects a socket's messages; `next(pred)` waits for the first that matches. */
function listen(socket: WebSocket) {
  const seen: Record<string, unknown>[] = [];
  const waiters: { pred: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] = [];
  socket.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    checkContract(m);
    seen.push(m);
    for (const w of [...waiters])
      if (w.pred(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
  });
  return {
    seen,
    next: (pred: (m: Record<string, unknown>) => boolean, ms = 5000) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const found = seen.find(pred);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error('no such message')), ms);
        waiters.push({
          pred,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      }),
  };
}

describe('realtime socket', () => {
  let t: TestApp;
  let base: string;
  /** A real socket to a listening server, open and listened to. */
  const connect = async (token: string) => {
    const socket = new WebSocket(`${base}/realtime/v1?token=${encodeURIComponent(token)}`);
    const l = listen(socket);
    await new Promise((resolve) => socket.once('open', resolve).once('close', resolve));
    return { socket, ...l };
  };
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells a customer, and only that customer, when their transactions change; answers heartbeats', async () => {
    const alice = await registeredCustomer(t, 'rt-alice@example.com', 'rt-alice-pass-1');
    const bob = await registeredCustomer(t, 'rt-bob@example.com', 'rt-bob-pass-1');
    const a = await connect(alice.access_token);
    const b = await connect(bob.access_token);
    const aliceSocket = a.socket;
    const bobSocket = b.socket;
    await a.next((m) => m.type === 'ready');
    await b.next((m) => m.type === 'ready');

    await t.app.ledger.execute(walletDecider, alice.user.id, recorded('1'), { actor: { id: 'staff', role: 'ADMIN' } });
    expect(await a.next((m) => m.topic === 'transactions')).toEqual({ type: 'event', topic: 'transactions', payload: { changed: true } });
    // The read tables already show it when the message arrives.
    const row = await t.database.db.selectFrom('transactions').select('user_id').where('user_id', '=', alice.user.id).executeTakeFirst();
    expect(row).toBeDefined();
    await new Promise((r) => setTimeout(r, 200));
    expect(b.seen.filter((m) => m.topic === 'transactions')).toEqual([]);

    aliceSocket.send(JSON.stringify({ type: 'heartbeat' }));
    expect(await a.next((m) => m.type === 'heartbeat')).toEqual({ type: 'heartbeat' });
    aliceSocket.terminate();
    bobSocket.terminate();
  });

  /** A customer's ready socket whose close is being awaited, and a wallet change that must not reach it afterwards. */
  const readySocket = async (token: string) => {
    const c = await connect(token);
    await c.next((m) => m.type === 'ready');
    return c;
  };
  const noHintAfterClose = async (userId: string, c: Awaited<ReturnType<typeof readySocket>>) => {
    const before = c.seen.length;
    await t.app.ledger.execute(walletDecider, userId, recorded('1'), { actor: { id: 'staff', role: 'ADMIN' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(c.seen.slice(before)).toEqual([]);
  };

  it('closes the sockets at once after a global sign-out, and nothing more reaches them', async () => {
    const alice = await registeredCustomer(t, 'rt-global@example.com', 'rt-global-pass-1');
    const other = await signIn(t, 'rt-global@example.com', 'rt-global-pass-1');
    const a = await readySocket(alice.access_token);
    const b = await readySocket(other.access_token);
    const codes = [closed(a.socket), closed(b.socket)];
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=global', headers: bearer(alice.access_token) })).statusCode,
    ).toBe(204);
    expect(await Promise.all(codes)).toEqual([4401, 4401]);
    await noHintAfterClose(alice.user.id, a);
  });

  it('keeps the socket of another session open after a local sign-out', async () => {
    const alice = await registeredCustomer(t, 'rt-local@example.com', 'rt-local-pass-1');
    const other = await signIn(t, 'rt-local@example.com', 'rt-local-pass-1');
    const a = await readySocket(alice.access_token);
    const b = await readySocket(other.access_token);
    const aClosed = closed(a.socket);
    expect(
      (await t.app.inject({ method: 'POST', url: '/auth/v1/logout?scope=local', headers: bearer(alice.access_token) })).statusCode,
    ).toBe(204);
    expect(await aClosed).toBe(4401);
    await t.app.ledger.execute(walletDecider, alice.user.id, recorded('1'), { actor: { id: 'staff', role: 'ADMIN' } });
    expect(await b.next((m) => m.topic === 'transactions')).toEqual({ type: 'event', topic: 'transactions', payload: { changed: true } });
    expect(b.socket.readyState).toBe(WebSocket.OPEN);
    b.socket.terminate();
  });

  it("closes a banned customer's sockets at once", async () => {
    const alice = await registeredCustomer(t, 'rt-ban@example.com', 'rt-ban-pass-1');
    const a = await readySocket(alice.access_token);
    const aClosed = closed(a.socket);
    await t.app.authServices.accounts.ban(alice.user.id, new Date(Date.now() + 86_400_000), { id: 'staff', role: 'ADMIN' });
    expect(await aClosed).toBe(4401);
    await noHintAfterClose(alice.user.id, a);
  });

  it("closes the other sessions' sockets after a password change, not the changing one's", async () => {
    const alice = await registeredCustomer(t, 'rt-pass@example.com', 'rt-pass-old-1');
    const other = await signIn(t, 'rt-pass@example.com', 'rt-pass-old-1');
    const a = await readySocket(alice.access_token);
    const b = await readySocket(other.access_token);
    const bClosed = closed(b.socket);
    const sessionId = t.app.jwt.decode<AccessClaims>(alice.access_token)!.session_id;
    await t.app.authServices.accounts.changePassword(alice.user.id, 'rt-pass-new-1', {
      sessionId,
      method: 'self',
      actor: { id: alice.user.id, role: 'CUSTOMER' },
    });
    expect(await bClosed).toBe(4401);
    await noHintAfterClose(alice.user.id, b);
    expect(a.socket.readyState).toBe(WebSocket.OPEN);
    a.socket.terminate();
  });

  it('closes a socket when its access token expires', async () => {
    const alice = await registeredCustomer(t, 'rt-expiry@example.com', 'rt-expiry-pass-1');
    const claims = t.app.jwt.decode<AccessClaims>(alice.access_token)!;
    const shortLived = t.app.jwt.sign(
      { sub: claims.sub, role: claims.role, aal: claims.aal, session_id: claims.session_id, jti: 'short-lived' },
      { expiresIn: 2 },
    );
    const a = await readySocket(shortLived);
    a.socket.send(JSON.stringify({ type: 'heartbeat' }));
    expect(await closed(a.socket, 4000)).toBe(4401);
    await noHintAfterClose(alice.user.id, a);
  });

  it('closes, on the periodic check, sockets whose session another process ended', async () => {
    const alice = await registeredCustomer(t, 'rt-sweep@example.com', 'rt-sweep-pass-1');
    const bob = await registeredCustomer(t, 'rt-sweep-b@example.com', 'rt-sweep-pass-1');
    const carol = await registeredCustomer(t, 'rt-sweep-c@example.com', 'rt-sweep-pass-1');
    const a = await readySocket(alice.access_token);
    const b = await readySocket(bob.access_token);
    const c = await readySocket(carol.access_token);
    const aClosed = closed(a.socket);
    const bClosed = closed(b.socket);
    // Written behind this process's back, as another server on the same database would.
    const db = t.database.db;
    await db
      .updateTable('auth_sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', t.app.jwt.decode<AccessClaims>(alice.access_token)!.session_id)
      .execute();
    await db
      .updateTable('users')
      .set({ banned_until: new Date(Date.now() + 86_400_000) })
      .where('id', '=', bob.user.id)
      .execute();
    await new Promise((r) => setTimeout(r, 200));
    expect(a.socket.readyState).toBe(WebSocket.OPEN);
    await sweepEndedSessions(t.app.realtime, t.app.authServices.sessions);
    expect(await Promise.all([aClosed, bClosed])).toEqual([4401, 4401]);
    expect(c.socket.readyState).toBe(WebSocket.OPEN);
    c.socket.terminate();
  });

  it('closes at once a socket whose session ends while its token is being checked', async () => {
    const alice = await registeredCustomer(t, 'rt-race@example.com', 'rt-race-pass-1');
    const guard = t.app.authServices.guard;
    const authenticate = guard.authenticate;
    // The sign-out lands after the token passed its check and before the socket is in the hub.
    guard.authenticate = async (request) => {
      const who = await authenticate.call(guard, request);
      await t.app.authServices.sessions.revoke(who.sessionId);
      return who;
    };
    try {
      const socket = new WebSocket(`${base}/realtime/v1?token=${encodeURIComponent(alice.access_token)}`);
      const code = await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('still open')), 3000);
        socket.on('close', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(4401);
    } finally {
      guard.authenticate = authenticate;
    }
  });

  it('closes a socket without a valid token', async () => {
    const socket = new WebSocket(`${base}/realtime/v1?token=not-a-token`);
    const code = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
    expect(code).toBe(4401);
  });

  // Last in the file: every message the tests above received (ready, heartbeats, events on
  // transactions, notifications, prices, tickets ...) is one that ledger/contract/realtime.ts describes.
  it('sends only messages the realtime contract describes', () => {
    expect(checked).toBeGreaterThan(10);
    expect(offContract).toEqual([]);
  });
});

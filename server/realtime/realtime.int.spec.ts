import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, registeredCustomer, type TestApp } from '../../tests/support/test-app.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { recorded } from '../../ledger/wallet/wallet.arbitraries.js';

/** Collects a socket's messages; `next(pred)` waits for the first that matches. */
function listen(socket: WebSocket) {
  const seen: Record<string, unknown>[] = [];
  const waiters: { pred: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] = [];
  socket.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    seen.push(m);
    for (const w of [...waiters]) if (w.pred(m)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m); }
  });
  return {
    seen,
    next: (pred: (m: Record<string, unknown>) => boolean, ms = 5000) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const found = seen.find(pred);
        if (found) return resolve(found);
        const timer = setTimeout(() => reject(new Error('no such message')), ms);
        waiters.push({ pred, resolve: (m) => { clearTimeout(timer); resolve(m); } });
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
    const alice = await registeredCustomer(t, 'rt-alice@example.com', 'rt-alice-pass');
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

  it('closes a socket without a valid token', async () => {
    const socket = new WebSocket(`${base}/realtime/v1?token=not-a-token`);
    const code = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
    expect(code).toBe(4401);
  });
});

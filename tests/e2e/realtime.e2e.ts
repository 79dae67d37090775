import { expect, test, type WebSocketRoute } from '@playwright/test';
import { REALTIME_URL, screens, sidebarLink, signInNewCustomer } from './helpers.js';

/*
 * The realtime socket's connection (spec 000 section 9): a refused token is refreshed, a silent
 * connection is found by its heartbeat, and Transactions says when it is broken. What arrives
 * over it: live.e2e.ts.
 */

test.describe('the realtime connection', () => {
  test('a refused token (4401) is refreshed before the next try', async ({ page, request }) => {
    const urls: string[] = [];
    await page.routeWebSocket(REALTIME_URL, (ws: WebSocketRoute) => {
      urls.push(ws.url());
      if (urls.length === 1) ws.close({ code: 4401, reason: 'unauthorized' });
      else ws.connectToServer();
    });
    const refreshed = page.waitForRequest((r) => r.url().includes('/auth/v1/token?grant_type=refresh_token'));
    await signInNewCustomer(page, request, 'rt-4401');
    await refreshed;
    await expect.poll(() => urls.length).toBe(2);
    const tokenOf = (url: string) => new URL(url).searchParams.get('token');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('wallet-ledger.session')!) as { access_token: string });
    expect(tokenOf(urls[1]!)).not.toBe(tokenOf(urls[0]!));
    expect(tokenOf(urls[1]!)).toBe(stored.access_token);
  });

  test('a heartbeat goes out every 30 s; one left unanswered for 10 s counts as a dead connection', async ({ page, request }) => {
    await page.clock.install();
    let answer = true;
    const sockets: { heartbeats: number; closedByPage: boolean; readyAt: Promise<number> }[] = [];
    // A server of our own that speaks the protocol, so its answers can be withheld.
    await page.routeWebSocket(REALTIME_URL, (ws: WebSocketRoute) => {
      const socket = { heartbeats: 0, closedByPage: false, readyAt: Promise.resolve(0) };
      sockets.push(socket);
      ws.onMessage((message) => {
        if ((JSON.parse(String(message)) as { type?: string }).type !== 'heartbeat') return;
        socket.heartbeats += 1;
        if (answer) ws.send(JSON.stringify({ type: 'heartbeat' }));
      });
      ws.onClose(() => {
        socket.closedByPage = true;
      });
      ws.send(JSON.stringify({ type: 'ready' }));
      // The page's time just after it had the 'ready' (from which its heartbeats count).
      socket.readyAt = page.evaluate(() => Date.now());
    });
    await signInNewCustomer(page, request, 'rt-heartbeat');
    await expect.poll(() => sockets.length).toBe(1);
    const readyAt = await sockets[0]!.readyAt;
    // From here on, page time moves only when the test moves it. A busy page may pass the
    // chosen moment before the pause arrives: then choose again.
    let pausedAt = 0;
    for (let tries = 0; pausedAt === 0; tries += 1) {
      const at = (await page.evaluate(() => Date.now())) + 250;
      try {
        await page.clock.pauseAt(at);
        pausedAt = at;
      } catch (err) {
        if (tries >= 5 || !String(err).includes('to the past')) throw err;
      }
    }
    expect(pausedAt - readyAt, 'the test paused the page clock too late to see the first heartbeat').toBeLessThan(25_000);
    // A call into the page, once the mock socket has answered, runs after the answer reached it.
    const settle = () => page.evaluate(() => 0);

    await page.clock.runFor(readyAt + 29_000 - pausedAt);
    await page.waitForTimeout(200);
    expect(sockets[0]!.heartbeats).toBe(0);
    await page.clock.runFor(2_000);
    await expect.poll(() => sockets[0]!.heartbeats).toBe(1);
    // Answered: the connection stays.
    await settle();
    await page.clock.runFor(15_000);
    await page.waitForTimeout(200);
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.closedByPage).toBe(false);

    // The next one goes unanswered: 10 s later the socket is given up, and a new one follows after 1 s.
    answer = false;
    await page.clock.runFor(15_000);
    await expect.poll(() => sockets[0]!.heartbeats).toBe(2);
    await page.clock.runFor(7_000);
    await page.waitForTimeout(200);
    expect(sockets[0]!.closedByPage).toBe(false);
    await page.clock.runFor(3_000);
    await expect.poll(() => sockets[0]!.closedByPage).toBe(true);
    await page.clock.runFor(2_000);
    await expect.poll(() => sockets.length).toBe(2);
  });

  test('after three failed tries Transactions says the connection is broken; it clears once a try succeeds', async ({ page, request }) => {
    test.setTimeout(60_000);
    let allow = true;
    let live: WebSocketRoute | null = null;
    const tries: number[] = [];
    await page.routeWebSocket(REALTIME_URL, (ws: WebSocketRoute) => {
      tries.push(Date.now());
      if (!allow) {
        ws.close({ code: 1011, reason: 'down' });
        return;
      }
      ws.connectToServer();
      live = ws;
    });
    await signInNewCustomer(page, request, 'rt-down');
    await sidebarLink(page, 'Transactions').click();
    await expect(page.getByText('No transactions found.')).toBeVisible();
    await expect.poll(() => tries.length).toBe(1);
    const error = page.getByText('Realtime connection error. Refresh may be needed.');
    await expect(error).toHaveCount(0);

    // The server goes away: the open socket drops and every try fails until it is back.
    allow = false;
    const droppedAt = Date.now();
    await live!.close({ code: 1001, reason: 'going away' });
    await expect(error).toBeVisible({ timeout: 15_000 });
    expect(tries.length).toBe(4);
    await page.screenshot({ path: `${screens}/transactions-realtime-error.png` });

    allow = true;
    await expect(error).toBeHidden({ timeout: 15_000 });
    expect(tries.length).toBe(5);
    // The waits before each try: 1, 2, 5, then 10 s.
    const gaps = [tries[1]! - droppedAt, ...tries.slice(2).map((t, i) => t - tries[i + 1]!)];
    for (const [i, expected] of [1_000, 2_000, 5_000, 10_000].entries()) {
      expect(gaps[i]!, `wait before try ${i + 1}`).toBeGreaterThanOrEqual(expected - 250);
      expect(gaps[i]!, `wait before try ${i + 1}`).toBeLessThan(expected + 1_500);
    }
  });
});

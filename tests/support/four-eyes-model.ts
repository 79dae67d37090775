import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { createTestApp, bearer, signIn, type TestApp } from './test-app.js';
import { createStaff } from '../../server/auth/staff-accounts.js';
import { money, ZERO } from '../../ledger/money.js';
import { fold } from '../../ledger/wallet/state.js';
import type { WalletEvent } from '../../ledger/wallet/events.js';
import { FourEyesAudit } from '../../ledger/journal/four-eyes-audit.js';
import type { RecordedEvent } from '../../ledger/event-store/port.js';

/*
 * A model-based search for second paths around the two-person rule. Random sequences of every
 * staff and customer command that touches money run through the API (and so through the
 * command handler and the wallet decider): manual transactions, every edit of status, type and
 * note, decisions by anyone, customers' sends and swaps, price moves and glitches, a manager
 * creating a worker or resetting a worker's password and then acting as that worker. After
 * every step an oracle of its own reads the event log and checks:
 * - the balances table equals the fold of each wallet's stream;
 * - no value above the single limit, and no solo action past the rolling daily sums per maker
 *   and per customer, reached a balance without a second person's approval; that approval came
 *   from a checker who is neither the maker nor the person who created the maker's account or
 *   set its password;
 * - a transaction under a request keeps its type (frozen), and staff never set or removed `swap`;
 * - `ledger verify`'s four-eyes audit passes over the same log.
 * The oracle values an action at the true price of the moment, never at a glitched one.
 */

const LIMIT = new Decimal(1000);
const DAILY = new Decimal(1500);

type Asset = 'BTC' | 'XRP';
const TRUE_START: Record<Asset, Decimal> = { BTC: new Decimal(97000), XRP: new Decimal('2.3') };
/** Small: about 390 and 345 USD (four of them pass the daily sum); big: far above the single limit. */
const SIZES: Record<Asset, { small: string; big: string }> = { BTC: { small: '0.004', big: '0.5' }, XRP: { small: '150', big: '20000' } };

interface Staffer {
  id: string;
  role: 'WORKER' | 'MANAGER' | 'ADMIN';
  token: string;
  /** People who created this account or set its password, and so could act as it. */
  controlledBy: Set<string>;
}

interface Customer {
  id: string;
  email: string;
  /** Signed in when a step first needs it (a sign-in costs a password hash). */
  token?: string;
  /** The staff who reach this customer: its worker, that worker's manager, the admin. */
  reach: string[];
}

interface World {
  t: TestApp;
  staff: Map<string, Staffer>;
  managerIds: string[];
  workerIds: string[];
  adminId: string;
  customers: Customer[];
  truePrice: Record<Asset, Decimal>;
  feedPrice: Record<Asset, Decimal>;
  serial: number;
}

type Step =
  | { kind: 'add'; maker: number; customer: number; asset: Asset; size: 'small' | 'big'; status: 'Complete' | 'Pending' }
  | {
      kind: 'edit';
      by: number;
      customer: number;
      pick: number;
      status?: 'Complete' | 'Failed';
      type?: 'deposit' | 'withdrawal' | 'send' | 'adjustment' | 'swap';
      note?: string;
    }
  | { kind: 'decide'; by: number; customer: number; pick: number; approve: boolean }
  | { kind: 'send'; customer: number; asset: Asset; size: 'small' | 'big' }
  | { kind: 'swap'; customer: number; size: 'small' | 'big' }
  | { kind: 'price'; asset: Asset; move: 'up' | 'down' | 'glitch-low' | 'glitch-high' | 'heal' }
  | { kind: 'create-worker'; manager: number; customer: number }
  | { kind: 'reset-password'; manager: number; worker: number };

const idx = fc.nat({ max: 7 });
/** Mostly the first customer, so that steps meet on one wallet; now and then the other two. */
const customerIdx = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.nat({ max: 2 }), weight: 1 });
const asset = fc.constantFrom<Asset>('BTC', 'XRP');
const size = fc.constantFrom<'small' | 'big'>('small', 'big');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      maker: idx,
      customer: customerIdx,
      asset,
      size,
      status: fc.constantFrom('Complete' as const, 'Pending' as const),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      by: idx,
      customer: customerIdx,
      pick: fc.nat({ max: 7 }),
      // The form's own values (spec 002: deposit, withdrawal, adjustment, swap), swap the most often.
      status: fc.constantFrom(undefined, undefined, 'Complete' as const, 'Complete' as const, 'Failed' as const),
      type: fc.constantFrom(
        undefined,
        undefined,
        'deposit' as const,
        'withdrawal' as const,
        'adjustment' as const,
        'swap' as const,
        'swap' as const,
      ),
      note: fc.constantFrom(undefined, 'checked'),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      by: idx,
      customer: customerIdx,
      pick: fc.nat({ max: 7 }),
      approve: fc.boolean(),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('send' as const), customer: customerIdx, asset, size }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('swap' as const), customer: customerIdx, size }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('price' as const),
      asset,
      move: fc.constantFrom('up' as const, 'down' as const, 'glitch-low' as const, 'glitch-high' as const, 'heal' as const),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('create-worker' as const), manager: idx, customer: customerIdx }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('reset-password' as const), manager: idx, worker: idx }), weight: 1 },
);

const pickOf = <T>(list: T[], i: number): T => list[i % list.length]!;

async function post(w: World, path: string, token: string, payload: Record<string, unknown>) {
  return w.t.app.inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
}

/** Signs in with a one-time password and replaces it, as the person holding that password would. */
async function takeOver(w: World, email: string, oneTime: string): Promise<string> {
  const first = await signIn(w.t, email, oneTime);
  const own = `own-pass-${++w.serial}-x`;
  const r = await w.t.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: own } });
  if (r.statusCode !== 200) throw new Error(`password change ${r.statusCode} ${r.body}`);
  return (await signIn(w.t, email, own)).access_token;
}

const CUSTOMER_PASSWORD = 'customer-pass-1';

/** A confirmed customer of `workerId` (or of nobody), made without the sign-up's captcha and mail. */
async function newCustomer(w: World, workerId: string | null): Promise<Customer> {
  const email = `customer-${++w.serial}@example.com`;
  const { accounts } = w.t.app.authServices;
  const id = await accounts.createAccount({
    email,
    password: CUSTOMER_PASSWORD,
    fullName: 'Model Customer',
    role: 'USER',
    source: 'self',
    requiresPasswordChange: false,
    emailConfirmed: true,
  });
  if (workerId) await accounts.record(id, { type: 'Claim', workerId }, { id: workerId, role: 'WORKER' });
  return { id, email, reach: workerId ? [workerId, w.managerIds[0]!, w.adminId] : [w.adminId] };
}

async function customerToken(w: World, c: Customer): Promise<string> {
  c.token ??= (await signIn(w.t, c.email, CUSTOMER_PASSWORD)).access_token;
  return c.token;
}

async function setFeed(w: World): Promise<void> {
  await w.t.app.prices.refresh();
}

async function walletEvents(w: World, customerId: string): Promise<RecordedEvent[]> {
  return w.t.app.ledger.store.readStream(`wallet-${customerId}`);
}

/** Applies one step through the API. The answers do not matter: the oracle judges the log. */
async function run(w: World, s: Step): Promise<void> {
  const customer = pickOf(w.customers, 'customer' in s ? s.customer : 0);
  const staffList = [...w.staff.values()];
  switch (s.kind) {
    case 'add': {
      // Mostly someone who reaches the customer; now and then anyone (a refusal changes nothing).
      const maker = s.maker < 6 ? w.staff.get(pickOf(customer.reach, s.maker))! : pickOf(staffList, s.maker);
      await post(w, 'add-transaction', maker.token, {
        targetUserId: customer.id,
        assetId: s.asset,
        amount: SIZES[s.asset][s.size],
        status: s.status,
        senderAddress: 'bank transfer',
        sentAt: new Date().toISOString(),
      });
      return;
    }
    case 'edit': {
      const by = s.by < 6 ? w.staff.get(pickOf(customer.reach, s.by))! : pickOf(staffList, s.by);
      const rows = (await w.t.app.ledger.database.db
        .selectFrom('transactions')
        .select(['id'])
        .where('user_id', '=', customer.id)
        // Open transactions first (the ones an edit can still move), newest first.
        .orderBy('status', 'desc')
        .orderBy('id', 'desc')
        .execute()) as { id: string }[];
      if (rows.length === 0) return;
      const row = pickOf(rows, s.pick);
      await post(w, 'update-transaction', by.token, {
        targetUserId: customer.id,
        transactionId: row.id,
        ...(s.status ? { status: s.status } : {}),
        ...(s.type ? { type: s.type } : {}),
        ...(s.note ? { note: s.note } : {}),
      });
      return;
    }
    case 'decide': {
      const by = pickOf(staffList, s.by);
      const requests = await w.t.app.ledger.database.db
        .selectFrom('approval_requests')
        .select(['request_id'])
        .where('user_id', '=', customer.id)
        .orderBy('request_id')
        .execute();
      if (requests.length === 0) return;
      const req = pickOf(requests, s.pick);
      await post(w, 'decide-approval', by.token, {
        requestId: req.request_id,
        decision: s.approve ? 'approve' : 'reject',
        reason: 'checked',
      });
      return;
    }
    case 'send':
      await post(w, 'create-pending-withdrawal', await customerToken(w, customer), {
        assetId: s.asset,
        amount: SIZES[s.asset][s.size],
        recipientAddress: s.asset === 'BTC' ? 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' : 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      });
      return;
    case 'swap':
      await post(w, 'create-swap-request', await customerToken(w, customer), {
        fromTokenId: 'BTC',
        toTokenId: 'XRP',
        fromAmount: SIZES.BTC[s.size],
      });
      return;
    case 'price': {
      const p = w.truePrice[s.asset];
      if (s.move === 'up' || s.move === 'down') {
        w.truePrice[s.asset] = p.times(s.move === 'up' ? '1.1' : '0.9');
        w.feedPrice[s.asset] = w.truePrice[s.asset];
      } else if (s.move === 'heal') w.feedPrice[s.asset] = p;
      else w.feedPrice[s.asset] = s.move === 'glitch-low' ? new Decimal('1e-9') : p.times(1000);
      await setFeed(w);
      return;
    }
    case 'create-worker': {
      const manager = pickOf(w.managerIds, s.manager);
      const m = w.staff.get(manager)!;
      const email = `made-${++w.serial}@example.com`;
      const chosen = `chosen-pass-${w.serial}-1`;
      const r = await post(w, 'create-worker-for-manager', m.token, { fullName: `Made ${w.serial}`, email, password: chosen });
      if (r.statusCode !== 201) return;
      const id = (r.json() as { worker: { id: string } }).worker.id;
      // The manager knows the password: they sign in as the new worker, who claims the customer
      // nobody has claimed yet (the first new worker does; a customer is claimed once).
      const token = await takeOver(w, email, chosen).catch(() => '');
      const spare = w.customers[w.customers.length - 1]!;
      const claimed = await w.t.app.authServices.accounts
        .record(spare.id, { type: 'Claim', workerId: id }, { id, role: 'WORKER' })
        .then(() => true)
        .catch(() => false);
      if (claimed) spare.reach = [id, manager, w.adminId];
      w.staff.set(id, { id, role: 'WORKER', token, controlledBy: new Set([manager]) });
      w.workerIds.push(id);
      return;
    }
    case 'reset-password': {
      const manager = pickOf(w.managerIds, s.manager);
      const workerId = pickOf(w.workerIds, s.worker);
      const r = await post(w, 'reset-worker-password', w.staff.get(manager)!.token, { workerId });
      if (r.statusCode !== 200) return;
      const email = (
        await w.t.app.ledger.database.db.selectFrom('users').select('email').where('id', '=', workerId).executeTakeFirstOrThrow()
      ).email!;
      const worker = w.staff.get(workerId)!;
      worker.controlledBy.add(manager);
      // Sign-ins are rate-limited per account: a refused one leaves the worker signed out.
      worker.token = await takeOver(w, email, (r.json() as { temporaryPassword: string }).temporaryPassword).catch(() => '');
      return;
    }
  }
}

interface Solo {
  makerId: string;
  customerId: string;
  valueUsd: Decimal;
}

/** The oracle: what the log may hold. Returns the first broken rule, or null. */
async function violation(w: World, solos: Solo[], valuedAt: Map<string, Decimal>): Promise<string | null> {
  for (const c of w.customers) {
    const events = await walletEvents(w, c.id);
    const state = fold(events.map((e) => ({ type: e.type, data: e.data }) as WalletEvent));
    const rows = await w.t.app.ledger.database.db.selectFrom('balances').selectAll().where('user_id', '=', c.id).execute();
    for (const r of rows) {
      const folded = state.assets.get(r.asset_id as never)?.balance ?? ZERO;
      if (!money(r.balance).eq(folded)) return `balances table ${r.asset_id} ${r.balance} != fold ${folded.toFixed()} for ${c.id}`;
    }
    const swapLegs = new Set<string>();
    const requests = new Map<string, { transactionId: string; amount: string; assetId: string; makerId: string }>();
    const approved = new Map<string, { checkerId: string }>();
    const underRequest = new Set<string>();
    for (const e of events) {
      const d = e.data as Record<string, unknown>;
      const actor = e.metadata.actorId;
      const txId = d.transactionId as string;
      switch (e.type) {
        case 'wallet.swap-requested':
          swapLegs.add(txId);
          break;
        case 'wallet.approval-requested':
          requests.set(d.requestId as string, {
            transactionId: txId,
            amount: d.amount as string,
            assetId: d.assetId as string,
            makerId: d.makerId as string,
          });
          underRequest.add(txId);
          break;
        case 'wallet.approval-approved':
          approved.set(d.requestId as string, { checkerId: d.checkerId as string });
          break;
        case 'wallet.transaction-edited':
          if (d.type !== undefined && underRequest.has(txId))
            return `the type of ${txId} changed while under a request (event ${e.eventId})`;
          if (d.type !== undefined && (d.type === 'swap') !== swapLegs.has(txId))
            return `staff ${d.type === 'swap' ? 'set' : 'removed'} the type swap on ${txId} (event ${e.eventId})`;
          break;
        case 'wallet.transaction-recorded':
        case 'wallet.transaction-settled': {
          if (e.type === 'wallet.transaction-recorded' && d.status !== 'Complete') break;
          if (swapLegs.has(txId)) break; // a customer's swap converts: not under the rule
          if (!w.staff.has(actor)) break; // the customer's own or the system's
          const requestId = d.approvalRequestId as string | undefined;
          const request = requestId ? requests.get(requestId) : undefined;
          if (request) {
            const decision = approved.get(requestId!);
            if (!decision) return `${e.type} ${txId} names request ${requestId}, which nobody approved`;
            const maker = w.staff.get(request.makerId);
            if (decision.checkerId === request.makerId) return `the maker approved their own request ${requestId}`;
            if (maker?.controlledBy.has(decision.checkerId))
              return `request ${requestId} was approved by ${decision.checkerId}, who created the maker's account or set its password`;
            if (request.transactionId !== txId || request.amount !== (d.amount as string) || request.assetId !== d.assetId)
              return `${e.type} ${txId} does not match its approved request ${requestId}`;
            break;
          }
          const value = valuedAt.get(e.eventId);
          if (!value) return `${e.type} ${txId} by ${actor} moved money alone, and the oracle did not see it happen (event ${e.eventId})`;
          if (value.gt(LIMIT))
            return `${e.type} ${txId} worth ${value.toFixed(2)} USD moved money without a second person (event ${e.eventId})`;
          break;
        }
      }
    }
  }
  const perMaker = new Map<string, Decimal>();
  const perCustomer = new Map<string, Decimal>();
  for (const s of solos) {
    perMaker.set(s.makerId, (perMaker.get(s.makerId) ?? ZERO).plus(s.valueUsd));
    perCustomer.set(s.customerId, (perCustomer.get(s.customerId) ?? ZERO).plus(s.valueUsd));
  }
  for (const [id, sum] of perMaker) if (sum.gt(DAILY)) return `maker ${id} moved ${sum.toFixed(2)} USD alone within a day`;
  for (const [id, sum] of perCustomer)
    if (sum.gt(DAILY)) return `customer ${id} received ${sum.toFixed(2)} USD from staff acting alone within a day`;
  const audit = new FourEyesAudit({ separationDays: 3650 });
  for (const e of await w.t.app.ledger.store.readAll())
    audit.apply({ eventId: e.eventId, streamId: e.streamId, type: e.type, data: e.data, metadata: e.metadata });
  if (audit.result.problems.length > 0) return `verify: ${JSON.stringify(audit.result.problems[0])}`;
  return null;
}

/**
 * The model-based search as a suite of `runs` sequences (FOUR_EYES_MODEL_RUNS overrides it):
 * 200 in `npm test`, 10,000 in `npm run test:long`.
 */
export function describeFourEyesModel(defaultRuns: number): void {
  const RUNS = Number(process.env.FOUR_EYES_MODEL_RUNS ?? defaultRuns);
  describe('model: no second path around the two-person rule', () => {
    let feed: http.Server;
    let w: World;

    beforeAll(async () => {
      const prices: Record<Asset, Decimal> = { ...TRUE_START };
      feed = http.createServer((_req, res) => {
        const body: Record<string, { price: number; changePercent24Hr: number }> = { ETH: { price: 3400, changePercent24Hr: 0 } };
        for (const a of ['BTC', 'XRP'] as const) body[a] = { price: Number(w?.feedPrice[a] ?? prices[a]), changePercent24Hr: 0 };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body));
      });
      await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
      const t = await createTestApp({
        PRICE_FEED_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/prices`,
        FOUR_EYES_LIMIT_USD: LIMIT.toFixed(),
        FOUR_EYES_DAILY_LIMIT_USD: DAILY.toFixed(),
        // The sequences move the rule's clock a day each; the oracle holds a creator or a password
        // setter apart for the whole run.
        FOUR_EYES_SEPARATION_DAYS: '3650',
      });
      w = {
        t,
        staff: new Map(),
        managerIds: [],
        workerIds: [],
        adminId: '',
        customers: [],
        truePrice: { ...TRUE_START },
        feedPrice: { ...TRUE_START },
        serial: 0,
      };
      const made: Record<string, string> = {};
      for (const [key, role] of [
        ['worker', 'WORKER'],
        ['manager', 'MANAGER'],
        ['other-manager', 'MANAGER'],
        ['admin', 'ADMIN'],
      ] as const) {
        const email = `${key}@example.com`;
        const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName: key, role });
        const token = await takeOver(w, email, password);
        w.staff.set(userId, { id: userId, role, token, controlledBy: new Set() });
        made[key] = userId;
        if (role === 'MANAGER') w.managerIds.push(userId);
        if (role === 'WORKER') w.workerIds.push(userId);
        if (role === 'ADMIN') w.adminId = userId;
      }
      await t.app.authServices.accounts.record(
        made.worker!,
        { type: 'AssignToManager', managerId: made.manager! },
        { id: made.admin!, role: 'ADMIN' },
      );
    }, 180_000);

    afterAll(async () => {
      await w?.t.close();
      await new Promise((resolve) => feed?.close(resolve));
    });

    it(
      `finds no sequence that moves money around the rule (${RUNS} sequences)`,
      async () => {
        // Each sequence runs on a day of its own: the rule's clock moves 25 hours ahead per sequence,
        // so that the rolling sums start afresh without new staff and customers (seconds each).
        let round = 0;
        const valuedAt = new Map<string, Decimal>();
        const seen = new Set<string>();
        await fc.assert(
          fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
            const day = ++round * 25 * 3_600_000;
            (w.t.app.fourEyes as { now?: () => Date }).now = () => new Date(Date.now() + day);
            w.truePrice = { ...TRUE_START };
            w.feedPrice = { ...TRUE_START };
            await setFeed(w);
            // Fresh wallets each sequence: two customers of the first worker, and a third that the
            // first worker a manager creates in this sequence claims.
            const worker = w.workerIds[0]!;
            w.customers = [await newCustomer(w, worker), await newCustomer(w, worker), await newCustomer(w, null)];
            const customers = w.customers;
            const solos: Solo[] = [];
            for (const s of steps) {
              const prices = { ...w.truePrice };
              await run(w, s);
              // Values the step's new solo staff money movements at the true price of the step.
              for (const c of customers) {
                const events = await walletEvents(w, c.id);
                const amounts = new Map<string, { assetId: Asset; amount: string }>();
                for (const e of events) {
                  const d = e.data as Record<string, unknown>;
                  if (typeof d.amount === 'string' && typeof d.transactionId === 'string' && e.type !== 'wallet.approval-requested')
                    amounts.set(d.transactionId, { assetId: d.assetId as Asset, amount: d.amount });
                  if (seen.has(e.eventId)) continue;
                  seen.add(e.eventId);
                  const moves =
                    (e.type === 'wallet.transaction-recorded' && d.status === 'Complete') || e.type === 'wallet.transaction-settled';
                  if (!moves || d.approvalRequestId || !w.staff.has(e.metadata.actorId)) continue;
                  const tx = amounts.get(d.transactionId as string)!;
                  const value = money(tx.amount)
                    .abs()
                    .times(prices[tx.assetId] ?? ZERO);
                  valuedAt.set(e.eventId, value);
                  const opened = events.find((x) => (x.data as { transactionId?: string }).transactionId === d.transactionId);
                  if (opened?.type !== 'wallet.swap-requested')
                    solos.push({ makerId: e.metadata.actorId, customerId: c.id, valueUsd: value });
                }
              }
              const broken = await violation(w, solos, valuedAt);
              expect(broken, `after ${JSON.stringify(s)}`).toBeNull();
            }
          }),
          { numRuns: RUNS },
        );
      },
      Math.max(1_800_000, RUNS * 5_000),
    );
  });
}

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { money } from '../money.js';
import type { WalletEvent } from './events.js';
import { APPROVAL_MESSAGES, needsSecondApproval } from './approvals.js';
import type { StaffAct } from './staff-rule.js';
import { closedPeriodMessage } from './closed-period.js';
import { assetBalance, decide, fold, WalletError, type WalletCommand } from './wallet.js';
import { recorded, withdrawal } from './wallet.arbitraries.js';

/** The two-person rule as the wallet decides it: given events, when a command, then events or a refusal. */
const worker = { id: randomUUID(), role: 'WORKER' as const };
const manager = { id: randomUUID(), role: 'MANAGER' };
const admin = { id: randomUUID(), role: 'ADMIN' };
const now = '2026-11-02T10:00:00.000Z';
const expiresAt = '2026-11-05T10:00:00.000Z';

const policy = { limitUsd: '1000', dailyLimitUsd: '5000', maxPriceAgeS: 600, priceBand: '0.5', expiryHours: 72 };
/** The facts of a staff action: BTC at 60000 USD, fresh and at its median, and nothing done alone today. */
const act = (over: Partial<StaffAct> = {}, requestId = randomUUID()): StaffAct => ({
  maker: worker,
  now,
  policy,
  price: { usd: '60000', ageS: 30, medianUsd: '60000' },
  makerDayUsd: '0',
  requestId,
  ...over,
});
const manual = (amount: string, staff: StaffAct = act(), transactionId = randomUUID()): WalletCommand => ({
  type: 'RecordTransaction',
  transactionId,
  assetId: 'BTC',
  sentAt: now,
  amount: money(amount),
  status: 'Complete',
  txType: 'deposit',
  note: null,
  senderAddress: 'staff',
  txid: null,
  isHidden: true,
  reason: null,
  staff,
});
const manualRequest = (amount: string, requestId = randomUUID(), transactionId = randomUUID()): WalletCommand =>
  manual(amount, act({}, requestId), transactionId);
const settleRequest = (transactionId: string, requestId = randomUUID(), over: Partial<StaffAct> = {}): WalletCommand => ({
  type: 'SettleTransaction',
  transactionId,
  by: { staff: act(over, requestId) },
});
const approve = (requestId: string, checker: { id: string; role: string } = manager, at = now): WalletCommand => ({
  type: 'DecideApproval',
  requestId,
  approve: true,
  checker,
  makerManagerId: manager.id,
  makerControllers: [],
  separationDays: 30,
  reason: 'checked the bank statement',
  now: at,
});

const after = (events: WalletEvent[], ...commands: WalletCommand[]) => commands.reduce((h, c) => [...h, ...decide(c, fold(h))], events);

function refusal(history: WalletEvent[], command: WalletCommand): WalletError {
  try {
    decide(command, fold(history));
  } catch (err) {
    if (err instanceof WalletError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('two-person rule (wallet decider)', () => {
  it('a manual credit above the limit is a request that moves no balance, with maker, price and USD value', () => {
    const requestId = randomUUID();
    const events = after([], manualRequest('500', requestId));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'wallet.approval-requested',
        data: expect.objectContaining({
          requestId,
          makerId: worker.id,
          makerRole: 'WORKER',
          amount: '500',
          priceUsd: '60000',
          valueUsd: '30000000',
          limitUsd: '1000',
        }),
      }),
    ]);
    expect(assetBalance(fold(events), 'BTC').balance.toFixed()).toBe('0');
  });

  it("the maker's manager approves: the approval and the transaction it records are one decision, naming maker and checker", () => {
    const requestId = randomUUID();
    const history = after([], manualRequest('500', requestId));
    const events = decide(approve(requestId), fold(history));
    expect(events.map((e) => e.type)).toEqual(['wallet.approval-approved', 'wallet.transaction-recorded']);
    expect(events[0]!.data).toMatchObject({ requestId, makerId: worker.id, checkerId: manager.id, reason: 'checked the bank statement' });
    expect(events[1]!.data).toMatchObject({ amount: '500', makerId: worker.id, approvalRequestId: requestId, isHidden: true });
    expect(assetBalance(fold([...history, ...events]), 'BTC').balance.toFixed()).toBe('500');
  });

  it('a rejection records the reason and moves nothing', () => {
    const requestId = randomUUID();
    const events = after([], manualRequest('500', requestId), { ...approve(requestId, admin), approve: false } as WalletCommand);
    expect(events.map((e) => e.type)).toEqual(['wallet.approval-requested', 'wallet.approval-rejected']);
    expect(assetBalance(fold(events), 'BTC').balance.toFixed()).toBe('0');
  });

  it('refuses the maker, a worker, a manager of another team, and a manager for a manager', () => {
    const requestId = randomUUID();
    const history = after([], manualRequest('500', requestId));
    expect(refusal(history, approve(requestId, worker))).toMatchObject({ code: 'forbidden', message: APPROVAL_MESSAGES.ownRequest });
    expect(refusal(history, approve(requestId, { id: randomUUID(), role: 'WORKER' }))).toMatchObject({
      code: 'forbidden',
      message: APPROVAL_MESSAGES.worker,
    });
    expect(refusal(history, approve(requestId, { id: randomUUID(), role: 'MANAGER' }))).toMatchObject({
      code: 'forbidden',
      message: APPROVAL_MESSAGES.otherTeam,
    });
    const byManager = randomUUID();
    const managers = after([], manual('500', act({ maker: { id: manager.id, role: 'MANAGER' } }, byManager)));
    expect(refusal(managers, approve(byManager, { id: randomUUID(), role: 'MANAGER' }))).toMatchObject({
      code: 'forbidden',
      message: APPROVAL_MESSAGES.adminOnly,
    });
    expect(decide(approve(byManager, admin), fold(managers))[0]!.type).toBe('wallet.approval-approved');
  });

  it('refuses a second decision, a decision after expiry, and a decision without a reason', () => {
    const requestId = randomUUID();
    const history = after([], manualRequest('500', requestId));
    const approved = after(history, approve(requestId));
    expect(refusal(approved, approve(requestId, admin))).toMatchObject({ code: 'invalid_state', message: APPROVAL_MESSAGES.approved });
    const rejected = after(history, { ...approve(requestId), approve: false } as WalletCommand);
    expect(refusal(rejected, approve(requestId, admin))).toMatchObject({ code: 'invalid_state', message: APPROVAL_MESSAGES.rejected });
    expect(refusal(history, approve(requestId, manager, expiresAt))).toMatchObject({
      code: 'invalid_state',
      message: APPROVAL_MESSAGES.expired,
    });
    expect(refusal(history, { ...approve(requestId), reason: '  ' } as WalletCommand)).toMatchObject({
      message: APPROVAL_MESSAGES.reasonRequired,
    });
  });

  it('expiry is an event once the time has passed, and only then', () => {
    const requestId = randomUUID();
    const history = after([], manualRequest('500', requestId));
    expect(decide({ type: 'ExpireApproval', requestId, now }, fold(history))).toEqual([]);
    const expired = after(history, { type: 'ExpireApproval', requestId, now: expiresAt });
    expect(expired.map((e) => e.type)).toEqual(['wallet.approval-requested', 'wallet.approval-expired']);
    expect(decide({ type: 'ExpireApproval', requestId, now: expiresAt }, fold(expired))).toEqual([]);
    expect(refusal(expired, approve(requestId))).toMatchObject({ message: APPROVAL_MESSAGES.expired });
  });

  it("a customer's pending withdrawal is settled only by the approval, and one transaction waits once", () => {
    const txId = randomUUID();
    const funded = after([], recorded('10', 'Complete'), withdrawal('5', 'BTC', txId));
    const requestId = randomUUID();
    const waiting = after(funded, settleRequest(txId, requestId));
    expect(waiting.at(-1)!.data).toMatchObject({ amount: '-5.05', valueUsd: '303000' });
    expect(refusal(waiting, settleRequest(txId))).toMatchObject({ message: APPROVAL_MESSAGES.alreadyWaiting });
    expect(assetBalance(fold(waiting), 'BTC').balance.toFixed()).toBe('10');
    const done = after(waiting, approve(requestId));
    expect(done.at(-1)).toMatchObject({ type: 'wallet.transaction-settled', data: { transactionId: txId, approvalRequestId: requestId } });
    expect(assetBalance(fold(done), 'BTC').balance.toFixed()).toBe('4.95');
  });

  it('a manual debit is checked against the balance when requested and again when approved', () => {
    expect(refusal([], manualRequest('-5')).code).toBe('insufficient_balance');
    const requestId = randomUUID();
    const history = after([], recorded('5', 'Complete'), manualRequest('-5', requestId), recorded('-1', 'Complete'));
    expect(refusal(history, approve(requestId)).code).toBe('insufficient_balance');
  });

  it('the limit: above it needs a second person, at it does not; a limit of 0 covers every action', () => {
    expect(needsSecondApproval('1000', '1000')).toBe(false);
    expect(needsSecondApproval('1000.000000000000000001', '1000')).toBe(true);
    expect(needsSecondApproval('999.99', '1000')).toBe(false);
    expect(needsSecondApproval('0.000001', '0')).toBe(true);
  });

  it('a small Complete credit runs at once with the valuation it passed, and counts in the day', () => {
    const events = after([], manual('0.01'));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'wallet.transaction-recorded',
        data: expect.objectContaining({
          makerId: worker.id,
          valuation: { priceUsd: '60000', valueUsd: '600', limitUsd: '1000', dailyLimitUsd: '5000', makerId: worker.id, valuedAt: now },
        }),
      }),
    ]);
    expect(fold(events).staffSolo).toEqual([{ at: now, valueUsd: '600', makerId: worker.id }]);
  });

  it('daily sums: an action that would take the maker or the customer past the day waits, whatever its size', () => {
    // Eight credits of 600 USD are 4800; the ninth would make 5400 of a 5000 daily limit.
    const eight = after([], ...Array.from({ length: 8 }, () => manual('0.01')));
    expect(eight.every((e) => e.type === 'wallet.transaction-recorded')).toBe(true);
    const ninth = decide(manual('0.01'), fold(eight));
    expect(ninth[0]).toMatchObject({ type: 'wallet.approval-requested', data: { reasons: ['customer-daily'], valueUsd: '600' } });
    // A day later the customer's sum starts again.
    const tomorrow = new Date(Date.parse(now) + 86_400_001).toISOString();
    expect(decide(manual('0.01', act({ now: tomorrow })), fold(eight))[0]!.type).toBe('wallet.transaction-recorded');
    // The maker's own day, from every wallet (a fact the server reads), counts the same way.
    expect(decide(manual('0.01', act({ makerDayUsd: '4500' })), fold([]))[0]).toMatchObject({
      type: 'wallet.approval-requested',
      data: { reasons: ['maker-daily'] },
    });
  });

  it('valuation fails closed: a stale price or one far from its median makes the action wait, with the reason', () => {
    const stale = decide(manual('0.001', act({ price: { usd: '60000', ageS: 601, medianUsd: '60000' } })), fold([]));
    expect(stale[0]).toMatchObject({ type: 'wallet.approval-requested', data: { reasons: ['stale-price'] } });
    // XRP glitched to 1e-9: 10^12 XRP is worth 1000 USD at that price, within the limit alone.
    const glitch = decide(
      { ...manual('1000000000000', act({ price: { usd: '0.000000001', ageS: 5, medianUsd: '2.3' } })), assetId: 'XRP' } as WalletCommand,
      fold([]),
    );
    expect(glitch[0]).toMatchObject({ type: 'wallet.approval-requested', data: { reasons: ['price-out-of-band'], valueUsd: '1000' } });
    const high = decide(manual('0.001', act({ price: { usd: '90001', ageS: 5, medianUsd: '60000' } })), fold([]));
    expect(high[0]).toMatchObject({ data: { reasons: ['price-out-of-band'] } });
    expect(decide(manual('0.001', act({ price: { usd: '89999', ageS: 5, medianUsd: '60000' } })), fold([]))[0]!.type).toBe(
      'wallet.transaction-recorded',
    );
  });

  it('relabelling: staff can neither set nor remove the type swap, and a pending credit is judged by what settling does', () => {
    const txId = randomUUID();
    const pending = after([], { ...manual('10'), status: 'Pending', transactionId: txId } as WalletCommand);
    expect(pending[0]!.type).toBe('wallet.transaction-recorded');
    expect(refusal(pending, { type: 'EditTransaction', transactionId: txId, txType: 'swap', now })).toMatchObject({
      code: 'forbidden',
      message: APPROVAL_MESSAGES.swapType,
    });
    expect(refusal([], { ...manual('1'), txType: 'swap' } as WalletCommand).message).toBe(APPROVAL_MESSAGES.swapType);
    // Relabelled to anything else, settling the 10 BTC credit still waits.
    const relabelled = after(pending, { type: 'EditTransaction', transactionId: txId, txType: 'adjustment', now });
    expect(decide(settleRequest(txId), fold(relabelled))[0]).toMatchObject({
      type: 'wallet.approval-requested',
      data: { action: 'settle-transaction', amount: '10', reasons: ['over-limit', 'maker-daily', 'customer-daily'] },
    });
  });

  it("a customer's swap converts: its legs settle without a request, and keep their type", () => {
    const funded = after([], recorded('2', 'Complete'));
    const swap = decide(
      {
        type: 'RequestSwap',
        requestId: randomUUID(),
        fromTransactionId: randomUUID(),
        toTransactionId: randomUUID(),
        fromAssetId: 'BTC',
        toAssetId: 'ETH',
        fromAmount: money('1'),
        fromPrice: money('60000'),
        toPrice: money('3000'),
        sentAt: now,
      },
      fold(funded),
    );
    const legId = (swap[0]!.data as { transactionId: string }).transactionId;
    const history = [...funded, ...swap];
    expect(decide(settleRequest(legId), fold(history)).map((e) => e.type)).toEqual([
      'wallet.transaction-settled',
      'wallet.transaction-settled',
    ]);
    expect(refusal(history, { type: 'EditTransaction', transactionId: legId, txType: 'deposit', now }).message).toBe(
      APPROVAL_MESSAGES.swapType,
    );
  });

  it('frozen: while a request waits or after it was approved, the type cannot change; the note can', () => {
    const txId = randomUUID();
    const requestId = randomUUID();
    const waiting = after([], recorded('20', 'Complete'), withdrawal('1', 'BTC', txId), settleRequest(txId, requestId));
    expect(refusal(waiting, { type: 'EditTransaction', transactionId: txId, txType: 'adjustment', now })).toMatchObject({
      message: APPROVAL_MESSAGES.frozen,
    });
    expect(decide({ type: 'EditTransaction', transactionId: txId, note: 'checked', now }, fold(waiting))).toHaveLength(1);
    // Rejected, the request no longer holds it.
    const rejected = after(waiting, { ...approve(requestId), approve: false } as WalletCommand);
    expect(decide({ type: 'EditTransaction', transactionId: txId, txType: 'adjustment', now }, fold(rejected))).toHaveLength(1);
  });

  it('separation of duties: whoever created the maker or set their password within the days cannot approve', () => {
    const requestId = randomUUID();
    const history = after([], manualRequest('500', requestId));
    const controllers = [{ id: manager.id, at: '2026-10-20T10:00:00.000Z' }];
    const withControllers = (days: number): WalletCommand =>
      ({ ...approve(requestId), makerControllers: controllers, separationDays: days }) as WalletCommand;
    expect(refusal(history, withControllers(30))).toMatchObject({ code: 'forbidden', message: APPROVAL_MESSAGES.separation });
    // Past the separation days, or another checker (an admin), it can be approved.
    expect(decide(withControllers(10), fold(history))[0]!.type).toBe('wallet.approval-approved');
    expect(decide({ ...withControllers(30), checker: admin } as WalletCommand, fold(history))[0]!.type).toBe('wallet.approval-approved');
  });

  it('a settlement names who makes it: staff under the rule, or the system', () => {
    const txId = randomUUID();
    const history = after([], recorded('5', 'Pending', 'BTC', txId));
    expect(decide({ type: 'SettleTransaction', transactionId: txId, by: { system: 'test' } }, fold(history))[0]!.type).toBe(
      'wallet.transaction-settled',
    );
  });

  it('a closed month holds for an approved manual transaction too: its date is checked again when it is approved', () => {
    const requestId = randomUUID();
    const history = after([], manualRequest('500', requestId));
    const closedThrough = '2026-11-30T23:59:59.999Z';
    expect(refusal(history, { ...approve(requestId), closedThrough } as WalletCommand)).toMatchObject({
      code: 'invalid_state',
      message: closedPeriodMessage(closedThrough),
    });
    expect(decide({ ...approve(requestId), closedThrough: '2026-10-31T23:59:59.999Z' } as WalletCommand, fold(history))[1]!.type).toBe(
      'wallet.transaction-recorded',
    );
  });
});

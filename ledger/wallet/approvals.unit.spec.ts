import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { money } from '../money.js';
import type { WalletEvent } from './events.js';
import { APPROVAL_MESSAGES, needsSecondApproval } from './approvals.js';
import { assetBalance, decide, fold, WalletError, type WalletCommand } from './wallet.js';
import { recorded, withdrawal } from './wallet.arbitraries.js';

/** The two-person rule as the wallet decides it: given events, when a command, then events or a refusal. */
const worker = { id: randomUUID(), role: 'WORKER' as const };
const manager = { id: randomUUID(), role: 'MANAGER' };
const admin = { id: randomUUID(), role: 'ADMIN' };
const now = '2026-11-02T10:00:00.000Z';
const expiresAt = '2026-11-05T10:00:00.000Z';

const manualRequest = (amount: string, requestId = randomUUID(), transactionId = randomUUID()): WalletCommand => ({
  type: 'RequestApproval',
  requestId,
  action: 'manual-transaction',
  transactionId,
  assetId: 'BTC',
  amount: money(amount),
  priceUsd: money('60000'),
  limitUsd: money('1000'),
  maker: worker,
  now,
  expiresAt,
  transaction: { sentAt: now, status: 'Complete', type: 'deposit', note: null, senderAddress: 'staff', txid: null, isHidden: true },
});
const settleRequest = (transactionId: string, requestId = randomUUID()): WalletCommand => ({
  type: 'RequestApproval',
  requestId,
  action: 'settle-transaction',
  transactionId,
  assetId: 'BTC',
  amount: money(0),
  priceUsd: money('60000'),
  limitUsd: money('1000'),
  maker: worker,
  now,
  expiresAt,
  transaction: null,
});
const approve = (requestId: string, checker: { id: string; role: string } = manager, at = now): WalletCommand => ({
  type: 'DecideApproval',
  requestId,
  approve: true,
  checker,
  makerManagerId: manager.id,
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
    const managers = after([], { ...manualRequest('500', byManager), maker: { id: manager.id, role: 'MANAGER' } } as WalletCommand);
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
});

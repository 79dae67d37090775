import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money } from '../money.js';
import { walletEventSchemas, type WalletEvent } from '../wallet/events.js';
import {
  decide,
  evolve,
  initialState,
  WalletError,
  availableBalance,
  assetBalance,
  type WalletCommand,
  type WalletState,
} from '../wallet/wallet.js';
import { commandFor, deposit, recorded, staffAct, stepArb, withdrawal, type Step } from '../wallet/wallet.arbitraries.js';
import { ASSET_IDS } from '../assets.js';
import { customerAccount } from './accounts.js';
import { JournalBook } from './book.js';
import { hasPostingRule, POSTING_RULES } from './postings.js';
import { trialBalance } from './trial-balance.js';

const USER = '00000000-0000-4000-8000-000000000001';
const STREAM = `wallet-${USER}`;

/** Runs commands through the decider and the journal; answers the postings of the last command as `account asset amount` lines. */
function run(commands: WalletCommand[]) {
  let state: WalletState = initialState();
  const book = new JournalBook();
  let last: string[] = [];
  for (const c of commands) {
    const events = decide(c, state);
    last = [];
    for (const e of events) {
      state = evolve(state, e);
      last.push(
        ...book
          .apply({ eventId: randomUUID(), streamId: STREAM, type: e.type, data: e.data })
          .map((p) => `${p.account.replace(USER, 'u')} ${p.assetId} ${p.amount}`),
      );
    }
  }
  return { state, book, last };
}

const settle = (transactionId: string): WalletCommand => ({ type: 'SettleTransaction', transactionId, by: { system: 'test' } });
const fail = (transactionId: string): WalletCommand => ({ type: 'FailTransaction', transactionId, reason: null });

describe('posting rules', () => {
  it('has a rule for every wallet event type', () => {
    const missing = Object.keys(walletEventSchemas).filter((type) => !hasPostingRule(type));
    expect(missing).toEqual([]);
    expect(Object.keys(POSTING_RULES).sort()).toEqual(Object.keys(walletEventSchemas).sort());
  });

  it('deposit requested: announced as pending-in against deposits in transit', () => {
    const d = deposit('100', 'BTC');
    expect(run([d]).last).toEqual(['customer:u:pending-in BTC 99', 'world:in-transit BTC -99']);
  });

  it('deposit settled: leaves transit, the net lands in available, the fee is revenue, the gross came from the world', () => {
    const id = randomUUID();
    expect(run([deposit('100', 'BTC', id), settle(id)]).last).toEqual([
      'customer:u:pending-in BTC -99',
      'world:in-transit BTC 99',
      'customer:u:available BTC 99',
      'house:fees BTC 1',
      'world:external BTC -100',
    ]);
  });

  it('deposit failed: the announcement is undone and no fee is earned', () => {
    const id = randomUUID();
    expect(run([deposit('100', 'BTC', id), fail(id)]).last).toEqual(['customer:u:pending-in BTC 99', 'world:in-transit BTC -99'].map(neg));
  });

  it('withdrawal requested: amount plus fee is held out of available', () => {
    const r = run([recorded('500', 'Complete', 'ETH'), withdrawal('10', 'ETH')]);
    expect(r.last).toEqual(['customer:u:available ETH -10.1', 'customer:u:pending-out ETH 10.1']);
  });

  it('withdrawal settled: the hold pays the fee to the house and the amount to the world', () => {
    const id = randomUUID();
    expect(run([recorded('500', 'Complete', 'ETH'), withdrawal('10', 'ETH', id), settle(id)]).last).toEqual([
      'customer:u:pending-out ETH -10.1',
      'house:fees ETH 0.1',
      'world:external ETH 10',
    ]);
  });

  it('withdrawal failed: the hold goes back to available', () => {
    const id = randomUUID();
    expect(run([recorded('500', 'Complete', 'ETH'), withdrawal('10', 'ETH', id), fail(id)]).last).toEqual([
      'customer:u:available ETH 10.1',
      'customer:u:pending-out ETH -10.1',
    ]);
  });

  it('send requested and settled: held, then paid to the world without a fee', () => {
    const id = randomUUID();
    const send: WalletCommand = {
      type: 'RequestSend',
      transactionId: id,
      assetId: 'SOL',
      amount: money('2'),
      recipientAddress: 'addr',
      sentAt: '2026-11-01T10:00:00.000Z',
    };
    const first = run([recorded('5', 'Complete', 'SOL'), send]);
    expect(first.last).toEqual(['customer:u:available SOL -2', 'customer:u:pending-out SOL 2']);
    expect(run([recorded('5', 'Complete', 'SOL'), send, settle(id)]).last).toEqual([
      'customer:u:pending-out SOL -2',
      'world:external SOL 2',
    ]);
  });

  it("transaction recorded: a manual transaction posts against its maker's staff adjustments account, whatever its type; Failed moves nothing", () => {
    const maker = randomUUID();
    const by = (c: WalletCommand): WalletCommand => ({
      ...(c as Extract<WalletCommand, { type: 'RecordTransaction' }>),
      staff: staffAct(maker),
    });
    expect(run([by(recorded('3', 'Complete', 'BTC'))]).last).toEqual([
      'customer:u:available BTC 3',
      `staff:${maker}:staff-adjustments BTC -3`,
    ]);
    expect(run([recorded('3', 'Complete'), by(recorded('-1', 'Complete'))]).last).toEqual([
      'customer:u:available BTC -1',
      `staff:${maker}:staff-adjustments BTC 1`,
    ]);
    const dep: WalletCommand = {
      ...(by(recorded('3', 'Complete')) as Extract<WalletCommand, { type: 'RecordTransaction' }>),
      txType: 'deposit',
    };
    expect(run([dep]).last).toEqual(['customer:u:available BTC 3', `staff:${maker}:staff-adjustments BTC -3`]);
    // An event written before the rule does not name its maker: the house's staff adjustments account.
    expect(run([recorded('3', 'Complete')]).last).toEqual(['customer:u:available BTC 3', 'house:staff-adjustments BTC -3']);
    expect(run([by(recorded('3', 'Failed'))]).last).toEqual([]);
  });

  it("transaction recorded Pending debit: held, and settled against its maker's account even after a change of type", () => {
    const id = randomUUID();
    const maker = randomUUID();
    const edit: WalletCommand = { type: 'EditTransaction', transactionId: id, txType: 'withdrawal' };
    const debit = {
      ...(recorded('-4', 'Pending', 'BTC', id) as Extract<WalletCommand, { type: 'RecordTransaction' }>),
      staff: staffAct(maker),
    };
    const r = run([recorded('9', 'Complete'), debit, edit, settle(id)]);
    expect(r.last).toEqual(['customer:u:pending-out BTC -4', `staff:${maker}:staff-adjustments BTC 4`]);
  });

  it('transaction edited: posts nothing', () => {
    const id = randomUUID();
    expect(run([recorded('3', 'Complete', 'BTC', id), { type: 'EditTransaction', transactionId: id, note: 'x' }]).last).toEqual([]);
  });

  it('swap: the from-leg is held then pays fee and conversion; the to-leg comes out of conversion; each asset balances', () => {
    const requestId = randomUUID();
    const from = randomUUID();
    const to = randomUUID();
    const swap: WalletCommand = {
      type: 'RequestSwap',
      requestId,
      fromTransactionId: from,
      toTransactionId: to,
      fromAssetId: 'BTC',
      toAssetId: 'ETH',
      fromAmount: money('1'),
      fromPrice: money('50000'),
      toPrice: money('2500'),
      sentAt: '2026-11-01T10:00:00.000Z',
    };
    expect(run([recorded('2', 'Complete', 'BTC'), swap]).last).toEqual([
      'customer:u:available BTC -1',
      'customer:u:pending-out BTC 1',
      'customer:u:pending-in ETH 19.8',
      'world:in-transit ETH -19.8',
    ]);
    const r = run([recorded('2', 'Complete', 'BTC'), swap, settle(from)]);
    expect(r.last).toEqual([
      'customer:u:pending-out BTC -1',
      'house:fees BTC 0.01',
      'house:swap-conversion BTC 0.99',
      'customer:u:pending-in ETH -19.8',
      'world:in-transit ETH 19.8',
      'customer:u:available ETH 19.8',
      'house:swap-conversion ETH -19.8',
    ]);
    expect(r.book.firstProblem).toBeNull();
    expect(run([recorded('2', 'Complete', 'BTC'), swap, fail(to)]).last.sort()).toEqual([
      'customer:u:available BTC 1',
      'customer:u:pending-in ETH -19.8',
      'customer:u:pending-out BTC -1',
      'world:in-transit ETH 19.8',
    ]);
  });

  it('stake: the principal moves to staked; the payout returns it with earnings paid by the house', () => {
    const stakeId = randomUUID();
    const stake: WalletCommand = {
      type: 'OpenStake',
      stakeId,
      assetId: 'BTC',
      amount: money('1'),
      durationDays: 7,
      rate: money('2.7'),
      sentAt: '2026-11-01T10:00:00.000Z',
    };
    expect(run([recorded('2', 'Complete', 'BTC'), stake]).last).toEqual(['customer:u:available BTC -1', 'customer:u:staked BTC 1']);
    const payout: WalletCommand = { type: 'PayOutStake', stakeId, transactionId: randomUUID(), now: '2026-12-01T00:00:00.000Z' };
    const r = run([recorded('2', 'Complete', 'BTC'), stake, payout]);
    const earnings = r.last.find((l) => l.startsWith('house:staking-rewards'))!.split(' ')[2]!;
    expect(money(earnings).isNegative()).toBe(true);
    expect(r.last).toEqual([
      'customer:u:staked BTC -1',
      `house:staking-rewards BTC ${earnings}`,
      `customer:u:available BTC ${money(1).minus(earnings).toFixed()}`,
    ]);
    expect(r.book.balance(customerAccount(USER, 'available'), 'BTC').toFixed()).toBe(availableBalance(r.state, 'BTC').toFixed());
  });

  it('posts canonical amounts whatever form the event wrote them in, and drops zero legs', () => {
    const book = new JournalBook();
    const pending = { ...txData('-100.500', 'Pending'), fee: '0.0' };
    const legs = (postings: { account: string; amount: string }[]) => postings.map((p) => `${p.account.replace(USER, 'u')} ${p.amount}`);
    expect(legs(book.apply({ eventId: 'e1', streamId: STREAM, type: 'wallet.transaction-recorded', data: pending }))).toEqual([
      'customer:u:available -100.5',
      'customer:u:pending-out 100.5',
    ]);
    expect(
      legs(
        book.apply({ eventId: 'e2', streamId: STREAM, type: 'wallet.transaction-settled', data: { transactionId: pending.transactionId } }),
      ),
    ).toEqual(['customer:u:pending-out -100.5', 'house:staff-adjustments 100.5']);
    expect(book.firstProblem).toBeNull();
  });

  it('names the first event whose postings do not balance', () => {
    const book = new JournalBook();
    book.apply({ eventId: 'e1', streamId: STREAM, type: 'wallet.transaction-recorded', data: txData('5', 'Complete') });
    book.apply({ eventId: 'e2', streamId: STREAM, type: 'wallet.made-up', data: {} });
    expect(book.firstProblem).toMatchObject({ eventId: 'e2', problem: 'no posting rule for wallet.made-up' });
  });
});

function neg(line: string) {
  const [a, asset, amount] = line.split(' ');
  return `${a} ${asset} ${money(amount!).negated().toFixed()}`;
}

function txData(amount: string, status: 'Pending' | 'Complete') {
  return {
    transactionId: randomUUID(),
    assetId: 'BTC',
    amount,
    fee: '0',
    sentAt: '2026-11-01T10:00:00.000Z',
    note: null,
    senderAddress: null,
    recipientAddress: null,
    txid: null,
    isHidden: false,
    requestId: null,
    paymentMethodId: null,
    type: 'adjustment',
    status,
    reason: null,
  };
}

type FinanceStep = { kind: 'swap'; from: number; to: number; amount: number } | { kind: 'stake'; amount: number; payout: boolean };
const financeStepArb: fc.Arbitrary<FinanceStep> = fc.oneof(
  fc.record({
    kind: fc.constant('swap' as const),
    from: fc.nat({ max: 2 }),
    to: fc.nat({ max: 2 }),
    amount: fc.integer({ min: 1, max: 5000 }),
  }),
  fc.record({ kind: fc.constant('stake' as const), amount: fc.integer({ min: 1, max: 100 }), payout: fc.boolean() }),
);
const PRICES = ['50000', '2500', '1'];

/** Swaps between the first three assets and BTC stakes, as commands (a payout follows its stake at once). */
function financeCommands(step: FinanceStep): WalletCommand[] {
  if (step.kind === 'swap') {
    return [
      {
        type: 'RequestSwap',
        requestId: randomUUID(),
        fromTransactionId: randomUUID(),
        toTransactionId: randomUUID(),
        fromAssetId: ASSET_IDS[step.from]!,
        toAssetId: ASSET_IDS[step.to]!,
        fromAmount: money(step.amount).dividedBy(1000),
        fromPrice: money(PRICES[step.from]!),
        toPrice: money(PRICES[step.to]!),
        sentAt: '2026-11-01T10:00:00.000Z',
      },
    ];
  }
  const stakeId = randomUUID();
  const open: WalletCommand = {
    type: 'OpenStake',
    stakeId,
    assetId: 'BTC',
    amount: money(step.amount).dividedBy(100),
    durationDays: 7,
    rate: money('2.7'),
    sentAt: '2026-11-01T10:00:00.000Z',
  };
  return step.payout ? [open, { type: 'PayOutStake', stakeId, transactionId: randomUUID(), now: '2027-01-01T00:00:00.000Z' }] : [open];
}

describe('journal properties', () => {
  it('random command sequences keep every asset at zero, and customer accounts equal the wallet balances', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ arbitrary: stepArb, weight: 3 }, { arbitrary: financeStepArb, weight: 1 }), { maxLength: 60 }),
        (steps) => {
          let state: WalletState = initialState();
          const history: WalletEvent[] = [];
          const book = new JournalBook();
          const commands = steps.flatMap((step): (WalletCommand | Step)[] =>
            step.kind === 'swap' || step.kind === 'stake' ? financeCommands(step) : [step],
          );
          for (const step of commands) {
            const command = 'type' in step ? step : commandFor(step, history);
            if (!command) continue;
            let events: WalletEvent[];
            try {
              events = decide(command, state);
            } catch (err) {
              if (err instanceof WalletError) continue;
              throw err;
            }
            for (const e of events) {
              state = evolve(state, e);
              history.push(e);
              book.apply({ eventId: randomUUID(), streamId: STREAM, type: e.type, data: e.data });
            }
          }
          expect(book.firstProblem).toBeNull();
          const tb = trialBalance(book.entries());
          for (const line of tb.lines) expect([line.assetId, line.total]).toEqual([line.assetId, '0']);
          expect(tb.reconciles).toBe(true);
          for (const asset of ASSET_IDS) {
            const b = assetBalance(state, asset);
            expect(book.balance(customerAccount(USER, 'available'), asset).toFixed()).toBe(availableBalance(state, asset).toFixed());
            expect(book.balance(customerAccount(USER, 'pending-out'), asset).toFixed()).toBe(b.pendingWithdrawals.negated().toFixed());
            expect(book.balance(customerAccount(USER, 'pending-in'), asset).toFixed()).toBe(b.pendingDeposits.toFixed());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

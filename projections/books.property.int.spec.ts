import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestDatabase } from '../tests/support/test-database.js';
import { PostgresEventStore } from '../ledger/event-store/postgres.js';
import { CommandHandler, type CommandContext } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { availableBalance, fold, WalletError, type WalletCommand } from '../ledger/wallet/wallet.js';
import type { TransactionStatus, TransactionType, WalletEvent } from '../ledger/wallet/events.js';
import { swapNote } from '../ledger/swap/quote.js';
import { money } from '../ledger/money.js';
import { foldJournal } from '../ledger/journal/fold.js';
import { trialBalance } from '../ledger/journal/trial-balance.js';
import { reconcileReadModels } from '../scripts/ledger-reconcile.js';
import { Projector } from './registry.js';
import { verifyReadModels } from './verify.js';
import { replayProjection } from './replay.js';
import { balancesProjection } from './balances.js';
import { transactionsProjection } from './transactions.js';
import { journalProjection } from './journal.js';
import { sql } from 'kysely';

/**
 * The books after any sequence of what customers and staff can do: deposits, withdrawals,
 * sends, swaps, stakes and their payouts, staff's manual transactions (hidden or not, any
 * status, type and sign), staff's edits of type and note, and settling or failing. Each run
 * starts from an empty database, runs the commands through the command handler with the
 * live projector, then checks with the ledger's own tools: `verify` (a replay equals the live
 * tables, balances equal the fold, no available balance below zero, every event's postings
 * sum to zero per asset, the journal's customer accounts equal the wallet) and the trial
 * balance (every asset sums to zero; the balances and journal tables agree with it).
 */

const ASSETS = ['BTC', 'ETH', 'USDT'] as const;
/** USD prices as the feed may give them: round ones and ones whose quotes do not come out exact. */
const PRICES: Record<(typeof ASSETS)[number], string[]> = { BTC: ['50000', '43567.891'], ETH: ['2500', '2456.7'], USDT: ['1', '0.9997'] };
const USERS = 2;
const SENT_AT = '2026-11-01T10:00:00.000Z';
const EDITABLE: TransactionType[] = ['deposit', 'withdrawal', 'adjustment', 'swap'];

type Asset = (typeof ASSETS)[number];
type NoteChoice = { kind: 'keep' } | { kind: 'clear' } | { kind: 'text' } | { kind: 'req-of-swap'; pick: number } | { kind: 'req-unknown' };
type Step =
  | { kind: 'deposit' | 'withdraw' | 'send'; user: number; asset: Asset; cents: number }
  | {
      kind: 'record';
      user: number;
      asset: Asset;
      cents: number;
      debit: boolean;
      status: TransactionStatus;
      txType: TransactionType;
      hidden: boolean;
    }
  | { kind: 'swap'; user: number; from: Asset; to: Asset; cents: number; oddPrices: boolean }
  | { kind: 'stake'; user: number; cents: number; payout: boolean }
  | { kind: 'payout'; user: number; pick: number }
  | { kind: 'settle' | 'fail'; user: number; pick: number }
  | { kind: 'edit'; user: number; pick: number; txType: TransactionType | null; note: NoteChoice; then: 'none' | 'settle' | 'fail' };

const user = fc.nat({ max: USERS - 1 });
const asset = fc.constantFrom(...ASSETS);
/** Hundredths, with now and then digits down to the 18th decimal (fees and quotes round there). */
const cents = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 400 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 1, max: 999_999_999 })).map(([c, fine]) => c + fine / 1e9),
  },
);
const noteArb: fc.Arbitrary<NoteChoice> = fc.oneof(
  fc.constant({ kind: 'keep' as const }),
  fc.constant({ kind: 'clear' as const }),
  fc.constant({ kind: 'text' as const }),
  fc.record({ kind: fc.constant('req-of-swap' as const), pick: fc.nat() }),
  fc.constant({ kind: 'req-unknown' as const }),
);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constantFrom('deposit' as const, 'withdraw' as const, 'send' as const), user, asset, cents }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('record' as const),
      user,
      asset,
      cents,
      debit: fc.boolean(),
      status: fc.constantFrom<TransactionStatus>('Pending', 'Complete', 'Failed'),
      txType: fc.constantFrom<TransactionType>('deposit', 'withdrawal', 'send', 'adjustment', 'swap'),
      hidden: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('swap' as const), user, from: asset, to: asset, cents, oddPrices: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('stake' as const), user, cents: fc.integer({ min: 2, max: 200 }), payout: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payout' as const), user, pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('settle' as const, 'fail' as const), user, pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      user,
      pick: fc.nat(),
      txType: fc.option(fc.constantFrom(...EDITABLE)),
      note: noteArb,
      then: fc.constantFrom('none' as const, 'settle' as const, 'fail' as const),
    }),
  },
);

/** What the test knows of one customer's wallet: its events, in order. */
interface Wallet {
  userId: string;
  events: WalletEvent[];
}

const amountOf = (c: number) => money(c.toFixed(9)).dividedBy(100).toDecimalPlaces(18);
const ids = (w: Wallet) =>
  w.events.flatMap((e) => ('transactionId' in e.data && 'assetId' in e.data && 'sentAt' in e.data ? [e.data.transactionId] : []));
const pendingIds = (w: Wallet) => {
  const open = new Set<string>();
  for (const e of w.events) {
    if (e.type === 'wallet.transaction-settled' || e.type === 'wallet.transaction-failed') open.delete(e.data.transactionId);
    else if ('transactionId' in e.data && ('status' in e.data ? e.data.status === 'Pending' : e.type.endsWith('-requested')))
      open.add(e.data.transactionId);
  }
  return [...open];
};
/** Most picks go to a Pending transaction (the ones that can still move); the rest to any. */
const pickFrom = (w: Wallet, pick: number) => {
  const pending = pendingIds(w);
  const list = pick % 4 !== 0 && pending.length > 0 ? pending : ids(w);
  return list.length ? list[Math.floor(pick / 4) % list.length]! : null;
};

function commandsFor(step: Step, w: Wallet): WalletCommand[] {
  switch (step.kind) {
    case 'deposit':
      return [
        {
          type: 'RequestDeposit',
          transactionId: randomUUID(),
          assetId: step.asset,
          amount: amountOf(step.cents),
          paymentMethodId: randomUUID(),
          sentAt: SENT_AT,
        },
      ];
    case 'withdraw':
      return [
        {
          type: 'RequestWithdrawal',
          transactionId: randomUUID(),
          assetId: step.asset,
          amount: amountOf(step.cents),
          paymentMethodId: randomUUID(),
          sentAt: SENT_AT,
        },
      ];
    case 'send':
      return [
        {
          type: 'RequestSend',
          transactionId: randomUUID(),
          assetId: step.asset,
          amount: amountOf(step.cents),
          recipientAddress: '0x' + 'b'.repeat(40),
          sentAt: SENT_AT,
        },
      ];
    case 'record': {
      const amount = amountOf(step.cents);
      return [
        {
          type: 'RecordTransaction',
          transactionId: randomUUID(),
          assetId: step.asset,
          amount: step.debit ? amount.negated() : amount,
          status: step.status,
          txType: step.txType,
          note: step.hidden ? 'hidden credit' : null,
          senderAddress: 'staff',
          txid: null,
          isHidden: step.hidden,
          reason: 'staff manual transaction',
          sentAt: SENT_AT,
        },
      ];
    }
    case 'swap':
      return [
        {
          type: 'RequestSwap',
          requestId: randomUUID(),
          fromTransactionId: randomUUID(),
          toTransactionId: randomUUID(),
          fromAssetId: step.from,
          toAssetId: step.to,
          fromAmount: amountOf(step.cents).dividedBy(10),
          fromPrice: money(PRICES[step.from][Number(step.oddPrices)]!),
          toPrice: money(PRICES[step.to][Number(step.oddPrices)]!),
          sentAt: SENT_AT,
        },
      ];
    case 'stake': {
      const stakeId = randomUUID();
      const open: WalletCommand = {
        type: 'OpenStake',
        stakeId,
        assetId: 'BTC',
        amount: amountOf(step.cents),
        durationDays: 7,
        rate: money('2.7'),
        sentAt: SENT_AT,
      };
      return step.payout ? [open, { type: 'PayOutStake', stakeId, transactionId: randomUUID(), now: '2027-06-01T00:00:00.000Z' }] : [open];
    }
    case 'payout': {
      const stakes = w.events.flatMap((e) => (e.type === 'wallet.stake-opened' ? [e.data.stakeId] : []));
      if (stakes.length === 0) return [];
      return [
        { type: 'PayOutStake', stakeId: stakes[step.pick % stakes.length]!, transactionId: randomUUID(), now: '2027-06-01T00:00:00.000Z' },
      ];
    }
    case 'settle':
    case 'fail': {
      const transactionId = pickFrom(w, step.pick);
      if (!transactionId) return [];
      return [
        step.kind === 'settle'
          ? { type: 'SettleTransaction', transactionId, by: { system: 'test' } }
          : { type: 'FailTransaction', transactionId, reason: null },
      ];
    }
    case 'edit': {
      // As the staff's Edit Transaction saves it: type and note first, then the status change.
      const transactionId = pickFrom(w, step.pick);
      if (!transactionId) return [];
      const requests = w.events.flatMap((e) => (e.type === 'wallet.swap-requested' ? [e.data.requestId] : []));
      let note: string | null | undefined;
      switch (step.note.kind) {
        case 'keep':
          note = undefined;
          break;
        case 'clear':
          note = null;
          break;
        case 'text':
          note = 'checked by staff';
          break;
        case 'req-of-swap':
          note = requests.length ? swapNote('BTC', 'ETH', requests[step.note.pick % requests.length]!) : 'no swap yet';
          break;
        case 'req-unknown':
          note = swapNote('ETH', 'USDT', randomUUID());
          break;
      }
      const out: WalletCommand[] = [];
      if (step.txType !== null || note !== undefined)
        out.push({ type: 'EditTransaction', transactionId, txType: step.txType ?? undefined, note });
      if (step.then === 'settle') out.push({ type: 'SettleTransaction', transactionId, by: { system: 'test' } });
      if (step.then === 'fail') out.push({ type: 'FailTransaction', transactionId, reason: null });
      return out;
    }
  }
}

describe('the books after any sequence of customer and staff commands', () => {
  it('property: postings balance, the trial balance reconciles with the read tables, no available balance is negative, balances equal the fold, and a replay equals the live tables', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 8, maxLength: 25 }), fc.integer({ min: 1, max: 7 }), async (steps, pageSize) => {
        const database = await createTestDatabase();
        const store = new PostgresEventStore(database.db);
        const projector = new Projector(database.projectionDb, store);
        try {
          await projector.start();
          const handler = new CommandHandler(store);
          const staff: CommandContext = { actor: { id: randomUUID(), role: 'ADMIN' } };
          const wallets: Wallet[] = Array.from({ length: USERS }, () => ({ userId: randomUUID(), events: [] }));
          // Every wallet starts with some of each asset, so that spending steps are not all refused.
          for (const w of wallets) {
            for (const a of ASSETS) {
              const r = await handler.handle(
                walletDecider,
                w.userId,
                {
                  type: 'RecordTransaction',
                  transactionId: randomUUID(),
                  assetId: a,
                  amount: money(3),
                  status: 'Complete',
                  txType: 'deposit',
                  note: null,
                  senderAddress: 'staff',
                  txid: null,
                  isHidden: false,
                  reason: null,
                  sentAt: SENT_AT,
                },
                staff,
              );
              w.events.push(...r.events);
            }
          }
          for (const step of steps) {
            const w = wallets[step.user]!;
            for (const command of commandsFor(step, w)) {
              try {
                const r = await handler.handle(walletDecider, w.userId, command, staff);
                w.events.push(...r.events);
                if (r.position) expect(await projector.waitFor(r.position, 10_000)).toBe(true);
                // (3) after every command, not only at the end.
                const state = fold(w.events);
                for (const a of ASSETS) expect([a, availableBalance(state, a).isNegative()]).toEqual([a, false]);
              } catch (err) {
                if (!(err instanceof WalletError)) throw err;
              }
            }
          }
          // The read models show every event before the checks read them.
          const last = await store.committedHead();
          if (last) expect(await projector.waitFor(last, 10_000)).toBe(true);
          await projector.stop();

          // (1), (3), (4), (5) and the journal's customer accounts: verify.
          const report = await verifyReadModels(database.db, store);
          const differing = report.projections.flatMap((p) => p.tables.filter((t) => t.onlyLive.length || t.onlyRebuilt.length));
          expect(differing).toEqual([]);
          expect(report.negativeAvailable).toEqual([]);
          expect(report.foldMismatches).toEqual([]);
          expect(report.journal).toMatchObject({
            ok: true,
            firstUnbalanced: null,
            firstUnbalancedInTable: null,
            typesWithoutRule: [],
            customerMismatches: [],
          });
          expect(report.ok).toBe(true);

          // (2): the trial balance sums to zero per asset and the balances and journal tables agree with it.
          const head = await store.headPosition();
          const book = await foldJournal(store, { until: head });
          expect(book.firstProblem).toBeNull();
          const tb = trialBalance(book.entries());
          for (const line of tb.lines) expect([line.assetId, line.total, line.reconciles]).toEqual([line.assetId, '0', true]);
          const readModels = await reconcileReadModels(database, store, tb, head!);
          expect(readModels).toEqual([
            { table: 'balances', checked: true, differences: [] },
            { table: 'journal_entries', checked: true, differences: [] },
          ]);

          // (5) again, over other page boundaries: each money read model replayed alone in pages
          // of a few events (the journal through its replay planner) writes the live rows.
          for (const projection of [balancesProjection, transactionsProjection, journalProjection]) {
            const snapshot = async () => {
              const out: Record<string, string[]> = {};
              for (const t of projection.tables)
                out[t] = (await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(database.db)).rows
                  .map((r) => JSON.stringify(r))
                  .sort();
              return out;
            };
            const live = await snapshot();
            await replayProjection(database.db, store, projection, { batchSize: pageSize });
            expect(await snapshot()).toEqual(live);
          }
        } finally {
          await projector.stop();
          await database.close();
        }
      }),
      // A fixed seed: the same sequences every run. BOOKS_RUNS and BOOKS_SEED explore further (e.g. 200 runs).
      { numRuns: Number(process.env.BOOKS_RUNS ?? 12), seed: Number(process.env.BOOKS_SEED ?? 20261126) },
    );
  }, 600_000);
});

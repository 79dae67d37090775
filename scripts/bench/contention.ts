/** Many clients withdrawing from one wallet: throughput, and the proof that the balance is exact. */
import { randomUUID } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { WrongExpectedVersionError, type EventStore } from '../../ledger/event-store/port.js';
import { CommandHandler } from '../../ledger/command-handler.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { FEE_RATE, WalletError } from '../../ledger/wallet/wallet.js';
import { recorded, withdrawal } from '../../ledger/wallet/wallet.arbitraries.js';
import { formatAmount, money } from '../../ledger/money.js';
import { foldWalletBalances } from '../../projections/read-models.js';
import { BENCH_ACTOR, ConflictCountingStore, now, perSecond, round, settle, type Ctx } from './helpers.js';

export interface ContentionRun {
  successes: number;
  insufficient: number;
  conflicts: number;
  gaveUp: number;
  ms: number;
  userId: string;
  credit: Decimal;
  expected: Decimal;
}

/**
 * One wallet credited with exactly enough for `k` withdrawals of 1 (1.01 with the fee)
 * plus 0.005, then `clients` loops that withdraw 1 through `handlers` command handlers
 * until the wallet refuses them.
 */
export async function contend(store: EventStore, k: number, clients: number, handlers: number): Promise<ContentionRun> {
  const cost = money(1).plus(money(1).times(FEE_RATE));
  const credit = cost.times(k).plus('0.005');
  const expected = credit.minus(cost.times(k));
  const userId = randomUUID();
  await new CommandHandler(store).handle(walletDecider, userId, recorded(formatAmount(credit), 'Complete', 'BTC'), { actor: BENCH_ACTOR });
  const counting = new ConflictCountingStore(store);
  // A handler that loses the race re-reads the stream and tries again; with 4 handlers it
  // can lose several times in a row, so the limit is high and any give-up is counted.
  const pool = Array.from({ length: handlers }, () => new CommandHandler(counting, { maxRetries: 10_000 }));
  let successes = 0;
  let insufficient = 0;
  let gaveUp = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const handler = pool[c % handlers]!;
      for (;;) {
        try {
          await handler.handle(walletDecider, userId, withdrawal('1', 'BTC'), { actor: { id: userId, role: 'USER' } });
          successes++;
        } catch (err) {
          if (err instanceof WalletError && err.code === 'insufficient_balance') {
            insufficient++;
            return;
          }
          if (err instanceof WrongExpectedVersionError) {
            gaveUp++;
            continue;
          }
          throw err;
        }
      }
    }),
  );
  return { successes, insufficient, conflicts: counting.conflicts, gaveUp, ms: now() - t0, userId, credit, expected };
}

export async function contentionPhase(ctx: Ctx): Promise<void> {
  const { pool, store, sizes, log } = ctx;
  await pool.query('truncate events, streams');
  const k = sizes.contentionWithdrawals;
  log(
    `contention: warming up, then ${k} withdrawals by 1 client, by ${sizes.contentionClients} clients through 1 handler and through ${sizes.contentionHandlers} handlers`,
  );
  await contend(store, Math.min(20, k), 4, 2);
  await settle(pool);
  const baselineRun = await contend(store, k, 1, 1);
  const variants = [
    { id: 'contention.sharedHandler', handlers: 1, label: `1 shared CommandHandler` },
    { id: 'contention.separateHandlers', handlers: sizes.contentionHandlers, label: `${sizes.contentionHandlers} CommandHandlers` },
  ];
  const runs: { id: string; label: string; handlers: number; run: ContentionRun }[] = [];
  for (const v of variants) runs.push({ ...v, run: await contend(store, k, sizes.contentionClients, v.handlers) });

  // The proof reads the balances back by folding the log with the decider's own evolve.
  const balances = await foldWalletBalances(store);
  const base = perSecond(baselineRun.successes, baselineRun.ms);
  const check = (label: string, run: ContentionRun, clients: number) => {
    const row = balances.get(`${run.userId}/BTC`);
    const available = row ? money(row.balance).plus(row.pending_withdrawals) : null;
    const exactBalance = available !== null && available.eq(run.expected) && formatAmount(available) === formatAmount(run.expected);
    const exactCount = run.successes === k;
    const allRefused = run.insufficient === clients;
    const ok = exactBalance && exactCount && allRefused && run.gaveUp === 0;
    ctx.proofs.push(
      `${ok ? 'exact' : 'NOT EXACT'}: ${label}: credited ${formatAmount(run.credit)} BTC, ${run.successes} of ${k} withdrawals of 1 BTC (1.01 with fee) accepted, ` +
        `${run.insufficient}/${clients} clients refused for insufficient balance, ${run.conflicts} conflicts retried, ${run.gaveUp} gave up; ` +
        `fold of the log: balance ${row?.balance ?? '?'} + pending withdrawals ${row?.pending_withdrawals ?? '?'} = available ${available ? formatAmount(available) : '?'}, ` +
        `expected ${formatAmount(run.credit)} - ${k} x 1.01 = ${formatAmount(run.expected)}`,
    );
    return { ok, available: available ? formatAmount(available) : null, exactBalance, exactCount, allRefused };
  };
  check(`1 client, 1 handler (baseline)`, baselineRun, 1);
  for (const { id, label, handlers, run } of runs) {
    const proof = check(`${sizes.contentionClients} clients, ${label}`, run, sizes.contentionClients);
    const value = perSecond(run.successes, run.ms);
    ctx.figures.push({
      id,
      group: 'contention',
      name: `${sizes.contentionClients} clients withdrawing, ${label}`,
      unit: 'withdrawals/s',
      value: round(value, 1),
      baseline: { name: '1 client, same withdrawals, 1 handler', value: round(base, 1) },
      ratio: round(value / base, 3),
      target: { text: `exact: ${k} accepted, available ${formatAmount(run.expected)}`, pass: proof.ok },
      details: {
        withdrawals: k,
        clients: sizes.contentionClients,
        handlers,
        accepted: run.successes,
        refused: run.insufficient,
        conflictsRetried: run.conflicts,
        gaveUp: run.gaveUp,
        seconds: round(run.ms / 1000, 3),
        credit: formatAmount(run.credit),
        expectedAvailable: formatAmount(run.expected),
        foldedAvailable: proof.available,
      },
    });
  }
}

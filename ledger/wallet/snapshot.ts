import type { AssetId } from '../assets.js';
import { money } from '../money.js';
import type { SnapshotCodec } from '../snapshots/snapshot.js';
import type { ApprovalState } from './approvals.js';
import type { RowType, TransactionStatus } from './events.js';
import type { StakeState, WalletState } from './wallet.js';

/** A transaction as a snapshot holds it: id, asset, amount, status, row type and the linked leg of a swap. */
type TransactionRow = [id: string, assetId: AssetId, amount: string, status: TransactionStatus, type: RowType, linked?: string];
type AssetRow = [assetId: AssetId, balance: string, pendingDeposits: string, pendingWithdrawals: string];
type StakeRow = [id: string, stake: Omit<StakeState, 'principal' | 'earnings'> & { principal: string; earnings: string }];

interface WalletSnapshot {
  transactions: TransactionRow[];
  assets: AssetRow[];
  stakes: StakeRow[];
  approvals: [string, ApprovalState][];
}

/**
 * The wallet's state in a snapshot. Every transaction of the wallet stays in its state, so
 * they are written as short rows. Amounts are the canonical decimal strings, read back
 * with decimal.js: no float on the way.
 */
export const walletSnapshot: SnapshotCodec<WalletState> = {
  version: 1,
  encode(state): WalletSnapshot {
    const transactions: TransactionRow[] = [];
    for (const [id, t] of state.transactions) {
      const row: TransactionRow = [id, t.assetId, t.amount, t.status, t.type];
      if (t.linkedTransactionId !== undefined) row.push(t.linkedTransactionId);
      transactions.push(row);
    }
    return {
      transactions,
      assets: [...state.assets].map(([id, a]) => [id, a.balance.toFixed(), a.pendingDeposits.toFixed(), a.pendingWithdrawals.toFixed()]),
      stakes: [...state.stakes].map(([id, s]) => [id, { ...s, principal: s.principal.toFixed(), earnings: s.earnings.toFixed() }]),
      approvals: [...state.approvals].map(([id, a]) => [id, structuredClone(a)]),
    };
  },
  decode(data) {
    const s = data as WalletSnapshot;
    const state: WalletState = { transactions: new Map(), assets: new Map(), stakes: new Map(), approvals: new Map(s.approvals) };
    for (const [id, assetId, amount, status, type, linked] of s.transactions) {
      state.transactions.set(
        id,
        linked === undefined ? { assetId, amount, status, type } : { assetId, amount, status, type, linkedTransactionId: linked },
      );
    }
    for (const [id, balance, pendingDeposits, pendingWithdrawals] of s.assets) {
      state.assets.set(id, {
        balance: money(balance),
        pendingDeposits: money(pendingDeposits),
        pendingWithdrawals: money(pendingWithdrawals),
      });
    }
    for (const [id, stake] of s.stakes)
      state.stakes.set(id, { ...stake, principal: money(stake.principal), earnings: money(stake.earnings) });
    return state;
  },
};

import type { AssetId } from '../assets.js';
import { money } from '../money.js';
import type { SnapshotArchive, SnapshotCodec } from '../snapshots/snapshot.js';
import type { ApprovalState } from './approvals.js';
import type { RowType, TransactionStatus } from './events.js';
import { initialState, knowsTransaction, type StaffSolo, type StakeState, type WalletState } from './state.js';
import type { WalletCommand } from './commands.js';

/** A transaction as a snapshot holds it: id, asset, amount, status, row type and the linked leg of a swap. */
type TransactionRow = [id: string, assetId: AssetId, amount: string, status: TransactionStatus, type: RowType, linked?: string];
type AssetRow = [assetId: AssetId, balance: string, pendingDeposits: string, pendingWithdrawals: string];
type StakeRow = [id: string, stake: Omit<StakeState, 'principal' | 'earnings'> & { principal: string; earnings: string }];

interface WalletSnapshot {
  transactions: TransactionRow[];
  assets: AssetRow[];
  stakes: StakeRow[];
  approvals: [string, ApprovalState][];
  staffSolo: StaffSolo[];
  swapLegs: string[];
}

/**
 * The wallet's closed transactions are kept beside its snapshots, not in them: id -> final
 * status, the only thing a decision reads of a closed transaction (a reused id is refused;
 * settling or failing it is a no-op or a refusal naming its status; an edit needs it to exist).
 */
const closedTransactions: SnapshotArchive<WalletState, WalletCommand> = {
  pending: (state) => [...state.unarchived].map((id) => [id, state.closed.get(id)!]),
  stored(state, ids) {
    for (const id of ids) state.unarchived.delete(id);
  },
  missing: (command, state) => namedTransactions(command, state).filter((id) => !knowsTransaction(state, id)),
  restore(state, entries) {
    for (const [id, status] of entries) if (status === 'Complete' || status === 'Failed') state.closed.set(id, status);
  },
};

/** The transaction ids a command reads: the new ids it must not reuse, and those it settles, fails, edits or puts to a second person. */
export function namedTransactions(command: WalletCommand, state: WalletState): string[] {
  switch (command.type) {
    case 'RequestDeposit':
    case 'RequestWithdrawal':
    case 'RequestSend':
    case 'RecordTransaction':
    case 'PayOutStake':
    case 'SettleTransaction':
    case 'FailTransaction':
    case 'EditTransaction':
      return [command.transactionId];
    case 'RequestSwap':
      return [command.fromTransactionId, command.toTransactionId];
    case 'OpenStake':
      return [command.stakeId];
    case 'DecideApproval': {
      const request = state.approvals.get(command.requestId)?.request;
      return request ? [request.transactionId] : [];
    }
    case 'ExpireApproval':
      return [];
  }
}

/**
 * The wallet's state in a snapshot: its open transactions as short rows, balances, stakes,
 * requests under the two-person rule and the day's staff actions that ran alone; the closed transactions beside it (`closedTransactions`).
 * Amounts are the canonical decimal strings, read back with decimal.js: no float on the way.
 */
export const walletSnapshot: SnapshotCodec<WalletState, WalletCommand> = {
  version: 3,
  archive: closedTransactions,
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
      staffSolo: state.staffSolo.map((x) => ({ ...x })),
      swapLegs: [...state.swapLegs],
    };
  },
  decode(data) {
    const s = data as WalletSnapshot;
    const state: WalletState = {
      ...initialState(),
      approvals: new Map(s.approvals),
      staffSolo: s.staffSolo,
      swapLegs: new Set(s.swapLegs),
    };
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

import type { Decimal } from 'decimal.js';
import { ASSET_IDS, type AssetId } from '../assets.js';
import { formatAmount, ZERO } from '../money.js';
import { parseAccount } from '../journal/accounts.js';
import { buildTree, customerHash, leafHash, proofPath, rootOf, type Balances, type InclusionProof } from './merkle.js';

/** What the house owes one customer at a moment: per asset, available + held for pending withdrawals + staked. */
export interface CustomerLiability {
  userId: string;
  customerHash: string;
  balances: Balances;
  leaf: string;
}

export interface Liabilities {
  at: string;
  root: string;
  /** Ordered by customer hash: the leaves of the tree in order. */
  customers: CustomerLiability[];
  /** Per asset, the sum of every customer's owed amount. */
  totals: Partial<Record<AssetId, string>>;
}

/** The customer accounts that are owed: an announced deposit (pending-in) is not received yet, so not owed. */
const OWED = new Set(['available', 'pending-out', 'staked']);

/**
 * Every customer's liabilities from the closing balances of the journal's accounts (one pass
 * over the log, PeriodBook), with the Merkle root over (customer hash, balances). Customers
 * owed nothing are left out; a negative balance (never written by the decider) would show as is.
 */
export function liabilitiesFrom(closings: Iterable<[string, AssetId, Decimal]>, at: Date): Liabilities {
  const owed = new Map<string, Map<AssetId, Decimal>>();
  for (const [account, assetId, amount] of closings) {
    const { owner, kind, userId } = parseAccount(account);
    if (owner !== 'customer' || !OWED.has(kind) || !userId) continue;
    let m = owed.get(userId);
    if (!m) owed.set(userId, (m = new Map()));
    m.set(assetId, (m.get(assetId) ?? ZERO).plus(amount));
  }
  const totals = new Map<AssetId, Decimal>();
  const customers: CustomerLiability[] = [];
  for (const [userId, m] of owed) {
    const balances: Balances = {};
    for (const a of ASSET_IDS) {
      const v = m.get(a);
      if (!v || v.isZero()) continue;
      balances[a] = formatAmount(v);
      totals.set(a, (totals.get(a) ?? ZERO).plus(v));
    }
    if (Object.keys(balances).length === 0) continue;
    const hash = customerHash(userId);
    customers.push({ userId, customerHash: hash, balances, leaf: leafHash(hash, balances) });
  }
  customers.sort((a, b) => a.customerHash.localeCompare(b.customerHash));
  return {
    at: at.toISOString(),
    root: rootOf(buildTree(customers.map((c) => c.leaf))),
    customers,
    totals: Object.fromEntries(ASSET_IDS.filter((a) => totals.has(a)).map((a) => [a, formatAmount(totals.get(a)!)])),
  };
}

/** A customer's proof of inclusion from the published leaves (in order) and their index among them. */
export function inclusionProof(
  at: string,
  leaves: { customerHash: string; balances: Balances; leaf: string }[],
  index: number,
): InclusionProof {
  const levels = buildTree(leaves.map((l) => l.leaf));
  return {
    format: 'wallet-ledger-liabilities-proof/1',
    at,
    root: rootOf(levels),
    customerHash: leaves[index]!.customerHash,
    balances: leaves[index]!.balances,
    path: proofPath(levels, index),
  };
}

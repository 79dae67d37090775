import { createHash } from 'node:crypto';
import { ASSET_IDS, type AssetId } from '../assets.js';

/**
 * The liabilities' Merkle tree (docs/finance.md, "Liabilities and proofs of inclusion").
 *
 *   customerHash = sha256("wallet-ledger/customer:" + userId)
 *   leaf         = sha256("wallet-ledger/leaf:" + customerHash + ":" + balances)
 *                  balances: "BTC=1.5;ETH=0.2", the customer's owed amounts in the order
 *                  BTC, ETH, USDT, BNB, SOL, XRP, ADA, DOGE, DOT, LTC, zeros left out
 *   node         = sha256("wallet-ledger/node:" + left + right)
 *
 * Every hash is lowercase hex. Leaves are ordered by customerHash; a level with an odd count
 * carries its last node up unchanged (never paired with itself). The prefixes keep a leaf from
 * passing for a node. A proof is the sibling hashes from the leaf to the root, each saying on
 * which side it sits.
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const customerHash = (userId: string) => sha256(`wallet-ledger/customer:${userId.toLowerCase()}`);

/** A customer's owed amounts as the leaf commits to them (canonical decimal strings). */
export type Balances = Partial<Record<AssetId, string>>;

export function balancesText(balances: Balances): string {
  return ASSET_IDS.filter((a) => balances[a] !== undefined && balances[a] !== '0')
    .map((a) => `${a}=${balances[a]}`)
    .join(';');
}

export const leafHash = (hash: string, balances: Balances) => sha256(`wallet-ledger/leaf:${hash}:${balancesText(balances)}`);
const nodeHash = (left: string, right: string) => sha256(`wallet-ledger/node:${left}${right}`);

export interface ProofStep {
  side: 'left' | 'right';
  hash: string;
}

/** What a customer downloads and `ledger verify-proof` checks. */
export interface InclusionProof {
  format: 'wallet-ledger-liabilities-proof/1';
  /** The moment the liabilities were taken at, and the root published for it. */
  at: string;
  root: string;
  customerHash: string;
  balances: Balances;
  path: ProofStep[];
}

/** The levels of the tree from the leaves (sorted by their customer hash) to the root. */
export function buildTree(leaves: string[]): string[][] {
  const levels = [leaves];
  while (levels[levels.length - 1]!.length > 1) {
    const level = levels[levels.length - 1]!;
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? nodeHash(level[i]!, level[i + 1]!) : level[i]!);
    levels.push(next);
  }
  return levels;
}

/** The root of no leaves: the hash of nothing, so that an empty book still publishes a root. */
export const EMPTY_ROOT = sha256('wallet-ledger/empty');

export const rootOf = (levels: string[][]) => levels[levels.length - 1]![0] ?? EMPTY_ROOT;

/** The path from leaf `index` to the root. */
export function proofPath(levels: string[][], index: number): ProofStep[] {
  const path: ProofStep[] = [];
  for (let l = 0; l < levels.length - 1; l++) {
    const level = levels[l]!;
    const sibling = index % 2 === 0 ? index + 1 : index - 1;
    if (sibling < level.length) path.push({ side: index % 2 === 0 ? 'right' : 'left', hash: level[sibling]! });
    index = Math.floor(index / 2);
  }
  return path;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Recomputes the root from a proof: null when it is not a proof at all (and says why). */
export function rootFromProof(proof: unknown): { root: string } | { problem: string } {
  const p = proof as Partial<InclusionProof> | null;
  if (!p || typeof p !== 'object' || p.format !== 'wallet-ledger-liabilities-proof/1')
    return { problem: 'not a liabilities proof of this ledger' };
  if (typeof p.customerHash !== 'string' || !HEX64.test(p.customerHash)) return { problem: 'customerHash is not a sha256 hash' };
  if (typeof p.root !== 'string' || !HEX64.test(p.root)) return { problem: 'root is not a sha256 hash' };
  if (!p.balances || typeof p.balances !== 'object') return { problem: 'balances are missing' };
  for (const [asset, amount] of Object.entries(p.balances))
    if (!(ASSET_IDS as readonly string[]).includes(asset) || typeof amount !== 'string' || !/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/.test(amount))
      return { problem: `balance ${asset} is not an asset with a canonical amount` };
  if (!Array.isArray(p.path) || p.path.some((s) => !s || (s.side !== 'left' && s.side !== 'right') || !HEX64.test(String(s.hash))))
    return { problem: 'path is not a list of {side, hash}' };
  let hash = leafHash(p.customerHash, p.balances);
  for (const step of p.path) hash = step.side === 'left' ? nodeHash(step.hash, hash) : nodeHash(hash, step.hash);
  return { root: hash };
}

/** True when the proof leads to its root (and to `publishedRoot`, when given). */
export function verifyProof(proof: unknown, publishedRoot?: string): { ok: boolean; problem?: string } {
  const r = rootFromProof(proof);
  if ('problem' in r) return { ok: false, problem: r.problem };
  const claimed = (proof as InclusionProof).root;
  if (r.root !== claimed) return { ok: false, problem: `the leaf and path lead to ${r.root}, not to the proof's root ${claimed}` };
  if (publishedRoot !== undefined && publishedRoot.toLowerCase() !== claimed)
    return { ok: false, problem: `the proof's root ${claimed} is not the published root ${publishedRoot}` };
  return { ok: true };
}

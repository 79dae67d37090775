import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { inclusionProof } from '../../ledger/books/liabilities.js';
import type { InclusionProof } from '../../ledger/books/merkle.js';

/**
 * A customer's proof of inclusion in the latest published liabilities (`ledger liabilities
 * --publish` keeps the leaves, migration 0030); null when none is published or the customer
 * was owed nothing then.
 * The tree is rebuilt from that publication's leaves in their order.
 */
export async function latestProofOf(db: Kysely<DB>, userId: string): Promise<InclusionProof | null> {
  const mine = (
    await sql<{ root: string; taken_at: Date | string; leaf_index: number }>`
      select s.root, s.taken_at, l.leaf_index
      from (select root, taken_at from liabilities_snapshots order by published_at desc limit 1) s
      join liabilities_leaves l on l.root = s.root and l.user_id = ${userId}`.execute(db)
  ).rows[0];
  if (!mine) return null;
  const leaves = (
    await sql<{ customer_hash: string; balances: Record<string, string> | string; leaf: string }>`
      select customer_hash, balances, leaf from liabilities_leaves where root = ${mine.root} order by leaf_index`.execute(db)
  ).rows.map((r) => ({
    customerHash: r.customer_hash,
    balances: typeof r.balances === 'string' ? (JSON.parse(r.balances) as Record<string, string>) : r.balances,
    leaf: r.leaf,
  }));
  return inclusionProof(new Date(mine.taken_at).toISOString(), leaves, Number(mine.leaf_index));
}

import { describe, expect, it } from 'vitest';
import { buildTree, customerHash, EMPTY_ROOT, leafHash, proofPath, rootOf, verifyProof, type InclusionProof } from './merkle.js';

const customers = Array.from({ length: 7 }, (_, i) => ({
  hash: customerHash(`00000000-0000-4000-8000-00000000000${i}`),
  balances: { BTC: `${i + 1}.5`, ETH: i % 2 ? '0.25' : '0' },
})).sort((a, b) => a.hash.localeCompare(b.hash));

function proofFor(index: number): InclusionProof {
  const levels = buildTree(customers.map((c) => leafHash(c.hash, c.balances)));
  return {
    format: 'wallet-ledger-liabilities-proof/1',
    at: '2026-01-31T23:59:59.999Z',
    root: rootOf(levels),
    customerHash: customers[index]!.hash,
    balances: customers[index]!.balances,
    path: proofPath(levels, index),
  };
}

describe('liabilities Merkle tree', () => {
  it("verifies every customer's proof, the last of an odd level too, against the published root", () => {
    for (let i = 0; i < customers.length; i++) expect(verifyProof(proofFor(i), proofFor(0).root)).toEqual({ ok: true });
  });

  it('refuses a proof whose balance, path or root was changed, or that names another root', () => {
    const p = proofFor(2);
    expect(verifyProof({ ...p, balances: { ...p.balances, BTC: '30.5' } }).ok).toBe(false);
    expect(verifyProof({ ...p, path: [...p.path].reverse() }).ok).toBe(false);
    expect(verifyProof({ ...p, customerHash: customers[3]!.hash }).ok).toBe(false);
    expect(verifyProof(p, 'f'.repeat(64))).toMatchObject({ ok: false, problem: expect.stringContaining('not the published root') });
    expect(verifyProof({ nonsense: true })).toEqual({ ok: false, problem: 'not a liabilities proof of this ledger' });
  });

  it('a zero balance is left out of the leaf, so 0 and absent commit to the same amounts; one customer is the root', () => {
    const h = customerHash('00000000-0000-4000-8000-000000000001');
    expect(leafHash(h, { BTC: '1', ETH: '0' })).toBe(leafHash(h, { BTC: '1' }));
    expect(rootOf(buildTree([leafHash(h, { BTC: '1' })]))).toBe(leafHash(h, { BTC: '1' }));
    expect(rootOf(buildTree([]))).toBe(EMPTY_ROOT);
  });
});

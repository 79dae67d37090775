import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainAppend, eventHash, GENESIS, merkleRoot, StreamHeads } from './chain.js';
import { checkStream } from '../audit/log-seal.js';
import type { RecordedEvent } from './port.js';

const meta = { actorId: 'u1', actorRole: 'WORKER', correlationId: 'c1', causationId: null, occurredAt: '2026-01-01T00:00:00.000Z' };
const newEvent = (i: number) => ({
  eventId: `00000000-0000-4000-8000-00000000000${i}`,
  type: 'wallet.transaction-recorded',
  version: 1,
  data: { amount: `${i}.5`, note: null, nested: { b: 2, a: [1, 'x', { d: true, c: null }] } },
  metadata: meta,
});

describe('the hash chain (shared by both event stores)', () => {
  it('serialises with sorted keys, as the stored JSON reads back whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'é"\n' }, u: undefined })).toBe(
      '{"a":{"c":"é\\"\\n","d":[3,{"y":2,"z":1}]},"b":1}',
    );
    // jsonb hands keys back in its own order: same canonical text, same hash.
    const stored = JSON.parse(JSON.stringify({ nested: { a: [1, 'x', { c: null, d: true }], b: 2 }, note: null, amount: '1.5' }));
    expect(canonicalJson(stored)).toBe(canonicalJson(newEvent(1).data));
  });

  it('chains an append in memory: each hash covers the previous one, stream, revision, type, data and metadata', () => {
    const events = [newEvent(1), newEvent(2), newEvent(3)];
    const chained = chainAppend('wallet-a', 0n, GENESIS, events);
    expect(chained.map((c) => c.revision)).toEqual([0n, 1n, 2n]);
    expect(chained[0]!.hash).toBe(eventHash(GENESIS, { streamId: 'wallet-a', revision: 0n, ...events[0]! }));
    expect(chained[1]!.hash).toBe(eventHash(chained[0]!.hash, { streamId: 'wallet-a', revision: 1n, ...events[1]! }));
    // The texts sent to the database are the ones hashed.
    expect(JSON.parse(chained[0]!.dataJson)).toEqual(events[0]!.data);
    const text = `[${JSON.stringify(GENESIS)},"wallet-a","0",${JSON.stringify(events[0]!.eventId)},"wallet.transaction-recorded",1,${canonicalJson(events[0]!.data)},${canonicalJson(meta)}]`;
    expect(chained[0]!.hash).toBe(createHash('sha256').update(text).digest('hex'));
    // Every covered field changes the hash.
    const base = { streamId: 'wallet-a', revision: 0n, ...events[0]! };
    const variants = [
      { ...base, streamId: 'wallet-b' },
      { ...base, revision: 1n },
      { ...base, type: 'wallet.transaction-settled' },
      { ...base, version: 2 },
      { ...base, data: { ...base.data, amount: '12000' } },
      { ...base, metadata: { ...meta, actorId: 'u2' } },
    ];
    for (const v of variants) expect(eventHash(GENESIS, v)).not.toBe(chained[0]!.hash);
    expect(eventHash('1'.repeat(64), base)).not.toBe(chained[0]!.hash);
    // A batch chained from one head read equals appends one at a time.
    const one = chainAppend('wallet-a', 0n, GENESIS, [events[0]!]);
    const two = chainAppend('wallet-a', 1n, one[0]!.hash, [events[1]!, events[2]!]);
    expect([...one, ...two].map((c) => c.hash)).toEqual(chained.map((c) => c.hash));
  });

  it('names the first event of a stream that was edited, deleted or reordered', () => {
    const events = [newEvent(1), newEvent(2), newEvent(3)];
    const chained = chainAppend('wallet-a', 0n, GENESIS, events);
    const recorded = events.map(
      (e, i) =>
        ({
          ...e,
          streamId: 'wallet-a',
          revision: BigInt(i),
          position: { commit: 1n, prepare: BigInt(i) },
          recordedAt: new Date(),
          hash: chained[i]!.hash,
        }) as RecordedEvent,
    );
    expect(checkStream(recorded)).toMatchObject({ ok: true, events: 3 });
    const edited = recorded.map((e, i) => (i === 1 ? { ...e, data: { ...(e.data as object), amount: '12000' } } : e));
    expect(checkStream(edited).firstBreak).toMatchObject({ revision: '1', problem: 'edited' });
    const deleted = recorded.filter((_, i) => i !== 1);
    expect(checkStream(deleted).firstBreak).toMatchObject({ revision: '2', problem: 'missing' });
    const renumbered = deleted.map((e, i) => ({ ...e, revision: BigInt(i) }));
    expect(checkStream(renumbered).firstBreak).toMatchObject({ revision: '1', problem: 'edited' });
    const swapped = [recorded[0]!, { ...recorded[2]!, revision: 1n }, { ...recorded[1]!, revision: 2n }];
    expect(checkStream(swapped).firstBreak).toMatchObject({ revision: '1', problem: 'edited' });
  });

  it('digests every stream head into one Merkle root, whatever their order', () => {
    const heads = [
      { streamId: 'b', revision: 1n, hash: 'b'.repeat(64) },
      { streamId: 'a', revision: 0n, hash: 'a'.repeat(64) },
      { streamId: 'c', revision: 5n, hash: 'c'.repeat(64) },
    ];
    const root = merkleRoot(heads);
    expect(root).toMatch(/^[0-9a-f]{64}$/);
    expect(merkleRoot([...heads].reverse())).toBe(root);
    expect(merkleRoot(heads.map((h, i) => (i === 2 ? { ...h, revision: 4n } : h)))).not.toBe(root);
    expect(merkleRoot(heads.slice(0, 2))).not.toBe(root);
    expect(merkleRoot([])).toBe(createHash('sha256').update('').digest('hex'));
  });

  it('remembers heads by revision, keeps no unchained head, and stays bounded', () => {
    const heads = new StreamHeads(2);
    heads.set('s1', 3n, 'a'.repeat(64));
    heads.set('s1', 2n, 'b'.repeat(64));
    expect(heads.get('s1')).toEqual({ revision: 3n, hash: 'a'.repeat(64) });
    heads.set('s1', 4n, null);
    expect(heads.get('s1')).toBeUndefined();
    heads.set('s2', 0n, 'c'.repeat(64));
    heads.set('s3', 0n, 'd'.repeat(64));
    heads.set('s4', 0n, 'e'.repeat(64));
    expect(heads.get('s2')).toBeUndefined();
    expect(heads.get('s4')).toBeDefined();
  });
});

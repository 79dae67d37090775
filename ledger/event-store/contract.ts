import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  DuplicateEventIdError,
  WrongExpectedVersionError,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
} from './port.js';
import { checkStream } from '../audit/log-seal.js';

/**
 * The behaviour every EventStore adapter must show, as one suite that each adapter's
 * spec runs against a fresh store.
 */
export function eventStoreContract(name: string, open: () => Promise<{ store: EventStore; close: () => Promise<void> }>) {
  describe(`event store contract: ${name}`, () => {
    let store: EventStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => {
      await close?.();
    });

    const stream = () => `test-${randomUUID()}`;
    /**
     * Reads the global log until `done` holds: on a shared PostgreSQL server another
     * database's open transaction can hold the read horizon back for a moment.
     */
    const readAllUntil = async (after: Parameters<EventStore['readAll']>[0], done: (events: RecordedEvent[]) => boolean) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const events = await store.readAll(after);
        if (done(events) || Date.now() > deadline) return events;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const event = (type = 'test.happened', data: unknown = { n: 1 }): NewEvent => ({
      eventId: randomUUID(),
      type,
      version: 1,
      data,
      metadata: {
        actorId: 'tester',
        actorRole: 'SYSTEM',
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date().toISOString(),
      },
    });

    it('appends to a new stream and reads it back in order with revisions from 0', async () => {
      const s = stream();
      const events = [event('a', { i: 0 }), event('b', { i: 1 }), event('c', { amount: '0.000000000000000001' })];
      const before = Date.now();
      const result = await store.append(s, events, { expectedRevision: 'no_stream' });
      const after = Date.now();
      expect(result.nextExpectedRevision).toBe(2n);
      const read = await store.readStream(s);
      expect(read.map((e) => [e.eventId, e.type, e.revision])).toEqual(events.map((e, i) => [e.eventId, e.type, BigInt(i)]));
      expect(read[2]!.data).toEqual({ amount: '0.000000000000000001' });
      expect(read[0]!.metadata.actorId).toBe('tester');
      expect(read[0]!.version).toBe(1);
      // When the store recorded it, to the millisecond.
      for (const e of read) expect([e.recordedAt >= new Date(before - 1), e.recordedAt <= new Date(after + 1)]).toEqual([true, true]);
    });

    it('gives back data and metadata exactly: quotes, backslashes, control characters, any script, nesting', async () => {
      const s = stream();
      const awkward = {
        note: 'a "quoted" \\ back\\slash, {braces}, [brackets], commas, NULL, null',
        lines: 'tab\there\nnew line\r\nand \u0001 control',
        scripts: 'naïve café ✓ 日本語 😀 \u{1F680}',
        nested: { list: [1, -2.5, 'three', null, true, { deep: ['"x"', '\\y'] }], empty: {}, none: [] },
        amount: '123456789012345678.000000000000000001',
        zero: 0,
      };
      const events = [event('awkward.first', awkward), event('awkward.second', { ...awkward, nested: null })];
      events[0]!.metadata = { ...events[0]!.metadata, reason: 'staff said "ok" \\ fine 😀' };
      await store.append(s, events, { expectedRevision: 'no_stream' });
      const read = await store.readStream(s);
      expect(read.map((e) => e.data)).toEqual([awkward, { ...awkward, nested: null }]);
      expect(read[0]!.metadata.reason).toBe('staff said "ok" \\ fine 😀');
    });

    it('refuses a stale expected revision with WrongExpectedVersion carrying expected and actual', async () => {
      const s = stream();
      await store.append(s, [event(), event()], { expectedRevision: 'no_stream' });
      const err = await store.append(s, [event()], { expectedRevision: 0n }).catch((e) => e);
      expect(err).toBeInstanceOf(WrongExpectedVersionError);
      expect(err.expected).toBe(0n);
      expect(err.actual).toBe(1n);
      const again = await store.append(s, [event()], { expectedRevision: 'no_stream' }).catch((e) => e);
      expect(again).toBeInstanceOf(WrongExpectedVersionError);
      expect(again.actual).toBe(1n);
      const missing = await store.append(stream(), [event()], { expectedRevision: 'stream_exists' }).catch((e) => e);
      expect(missing).toBeInstanceOf(WrongExpectedVersionError);
      expect(missing.actual).toBe('no_stream');
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('appends at the exact expected revision and with any', async () => {
      const s = stream();
      await store.append(s, [event()], { expectedRevision: 'no_stream' });
      expect((await store.append(s, [event()], { expectedRevision: 0n })).nextExpectedRevision).toBe(1n);
      expect((await store.append(s, [event()], { expectedRevision: 'any' })).nextExpectedRevision).toBe(2n);
      expect((await store.append(s, [event()], { expectedRevision: 'stream_exists' })).nextExpectedRevision).toBe(3n);
    });

    it('chains every event to the one before it in its stream, one append or many, whatever the expectation', async () => {
      const s = stream();
      await store.append(s, [event(), event('test.happened', { b: 2, a: { z: [1, 'two'], y: null } })], { expectedRevision: 'no_stream' });
      await store.append(s, [event()], { expectedRevision: 1n });
      await store.append(s, [event(), event()], { expectedRevision: 'any' });
      await store.append(s, [event()], { expectedRevision: 'stream_exists' });
      const read = await store.readStream(s);
      expect(read).toHaveLength(6);
      expect(read.every((e) => /^[0-9a-f]{64}$/.test(e.hash ?? ''))).toBe(true);
      expect(new Set(read.map((e) => e.hash)).size).toBe(6);
      expect(checkStream(read)).toMatchObject({ ok: true, events: 6, firstBreak: null });
      // The hash is read as stored, also from the global log.
      const all = await readAllUntil({ after: read[0]!.position, maxCount: 1000 }, (es) => es.filter((e) => e.streamId === s).length >= 5);
      expect(all.filter((e) => e.streamId === s).map((e) => e.hash)).toEqual(read.slice(1).map((e) => e.hash));
    });

    it('treats a re-append of the same event ids as a no-op with the same result', async () => {
      const s = stream();
      const events = [event(), event()];
      const first = await store.append(s, events, { expectedRevision: 'no_stream' });
      const second = await store.append(s, events, { expectedRevision: 'no_stream' });
      expect(second.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(comparePositions(second.position, first.position)).toBe(0);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('refuses an append that reuses only some stored event ids', async () => {
      const s = stream();
      const stored = event();
      await store.append(s, [stored], { expectedRevision: 'no_stream' });
      const err = await store.append(s, [event(), stored], { expectedRevision: 'any' }).catch((e) => e);
      expect(err instanceof DuplicateEventIdError || err instanceof WrongExpectedVersionError).toBe(true);
      expect(await store.readStream(s)).toHaveLength(1);
    });

    it('reads the global log after a position, in order, across streams', async () => {
      const start = await store.headPosition();
      const a = stream();
      const b = stream();
      const e1 = event();
      const e2 = event();
      const e3 = event();
      await store.append(a, [e1], { expectedRevision: 'no_stream' });
      await store.append(b, [e2], { expectedRevision: 'no_stream' });
      await store.append(a, [e3], { expectedRevision: 0n });
      const all = await readAllUntil({ after: start ?? undefined, maxCount: 100 }, (evs) => evs.some((e) => e.eventId === e3.eventId));
      const mine = all.filter((e) => e.streamId === a || e.streamId === b);
      expect(mine.map((e) => e.eventId)).toEqual([e1.eventId, e2.eventId, e3.eventId]);
      for (let i = 1; i < all.length; i++) expect(comparePositions(all[i - 1]!.position, all[i]!.position)).toBeLessThan(0);
      const after = await store.readAll({ after: mine[0]!.position, maxCount: 100 });
      expect(after.map((e) => e.eventId)).not.toContain(e1.eventId);
      expect(after.map((e) => e.eventId)).toContain(e2.eventId);
      const head = await store.headPosition();
      expect(comparePositions(head!, mine[2]!.position)).toBeGreaterThanOrEqual(0);
    });

    it('pages readStream from a revision', async () => {
      const s = stream();
      await store.append(s, [event(), event(), event(), event()], { expectedRevision: 'no_stream' });
      const page = await store.readStream(s, { fromRevision: 1n, maxCount: 2 });
      expect(page.map((e) => e.revision)).toEqual([1n, 2n]);
      expect(await store.readStream(stream())).toEqual([]);
    });

    it('subscribes: catches up, then receives live appends promptly', async () => {
      const s = stream();
      const before = event();
      await store.append(s, [before], { expectedRevision: 'no_stream' });
      const from = (await readAllUntil({ maxCount: 1_000_000 }, (evs) => evs.some((e) => e.eventId === before.eventId))).find(
        (e) => e.eventId === before.eventId,
      )!.position;
      const sub = store.subscribeAll({ after: from });
      try {
        const live = event();
        const t0 = Date.now();
        setTimeout(() => void store.append(s, [live], { expectedRevision: 0n }), 50);
        let got: string | undefined;
        while (!got) {
          const batch = await sub.nextBatch(10);
          got = batch.find((e) => e.eventId === live.eventId)?.eventId;
          expect(batch.map((e) => e.eventId)).not.toContain(before.eventId);
        }
        // Woken by the append, not by a slow poll.
        expect(Date.now() - t0).toBeLessThan(1_000);
      } finally {
        await sub.close();
      }
    });
  });
}

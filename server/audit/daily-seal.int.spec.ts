import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/test-database.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import { SEAL_STREAM, verifyLog } from '../../ledger/audit/log-seal.js';
import { DailySeal } from './daily-seal.js';

describe('the daily seal', () => {
  it('seals the log once a day whatever the number of instances, as the system, and verify proves the log by its digest', async () => {
    const database = await createTestDatabase();
    const store = new PostgresEventStore(database.db);
    try {
      const meta = {
        actorId: 'u1',
        actorRole: 'USER',
        correlationId: randomUUID(),
        causationId: null,
        occurredAt: new Date().toISOString(),
      };
      await store.append(
        `test-${randomUUID()}`,
        [{ eventId: randomUUID(), type: 'test.happened', version: 1, data: { n: 1 }, metadata: meta }],
        {
          expectedRevision: 'no_stream',
        },
      );
      const logged: string[] = [];
      const log = {
        info: (_o: unknown, msg?: string) => void logged.push(msg ?? ''),
        warn: (_o: unknown, msg?: string) => void logged.push(msg ?? ''),
      };
      const now = () => new Date('2026-12-07T00:15:00Z');
      // Two instances, and one of them twice.
      const a = new DailySeal(store, { now, log });
      const b = new DailySeal(new PostgresEventStore(database.db), { now, log });
      const first = await a.run();
      const [second, third] = await Promise.all([b.run(), a.run()]);
      expect(first?.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(second?.digest).toBe(first!.digest);
      expect(third?.digest).toBe(first!.digest);
      const seals = await store.readStream(SEAL_STREAM);
      expect(seals).toHaveLength(1);
      expect(seals[0]!.metadata).toMatchObject({ actorId: 'system', actorRole: 'SYSTEM', reason: 'daily seal 2026-12-07' });
      expect(seals[0]!.data).toMatchObject({ by: 'daily', streams: 1, events: 1 });
      expect(logged).toEqual([`daily seal 2026-12-07: digest ${first!.digest} (keep it outside the database)`]);
      // The next day seals again.
      const next = await new DailySeal(store, { now: () => new Date('2026-12-08T00:15:00Z') }).run();
      expect(next?.sealNumber).toBe('1');
      const verified = await verifyLog(store, { keptDigest: first!.digest });
      expect(verified.ok).toBe(true);
      expect(verified.kept?.text).toContain('proves the log up to seal 0');
      await Promise.all([a.stop(), b.stop()]);
    } finally {
      await database.close();
    }
  }, 60_000);
});

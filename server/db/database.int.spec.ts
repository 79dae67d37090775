import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { migrateToLatest } from '../../migrations/index.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';

describe('the embedded database (PGlite in DATA_DIR)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-data-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps what was written across a close and reopen, and lets one process at a time in', async () => {
    const first = await openDatabase({ dataDir });
    await migrateToLatest(first.db);
    const eventId = randomUUID();
    await new PostgresEventStore(first.db).append(
      'kept-1',
      [
        {
          eventId,
          type: 'test.kept',
          version: 1,
          data: { amount: '1.5' },
          metadata: { actorId: 't', actorRole: 'SYSTEM', correlationId: eventId, causationId: null, occurredAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'no_stream' },
    );

    // A second opener is turned away with a message that says what to do.
    const err = await openDatabase({ dataDir }).catch((e) => e);
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect(err.message).toMatch(/is in use by process \d+\. Stop that process/);
    await first.close();

    const second = await openDatabase({ dataDir });
    const events = await new PostgresEventStore(second.db).readStream('kept-1');
    expect(events.map((e) => [e.eventId, e.data])).toEqual([[eventId, { amount: '1.5' }]]);
    await second.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    // The folder of the test above (a new one if it did not run): setting up a fresh data
    // directory on disk takes PGlite seconds, and the lock file is all this test is about.
    fs.writeFileSync(path.join(dataDir, 'ledger.lock'), '999999999');
    const db = await openDatabase({ dataDir });
    expect(fs.readFileSync(path.join(dataDir, 'ledger.lock'), 'utf8')).toBe(String(process.pid));
    await db.close();
    expect(fs.existsSync(path.join(dataDir, 'ledger.lock'))).toBe(false);
  });
});

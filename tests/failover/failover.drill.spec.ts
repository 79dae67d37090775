import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { openDatabase } from '../../server/db/database.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import { verifyReadModels } from '../../projections/verify.js';
import { DepositLoad, DrillClient, ReadinessWatch, type Customer } from './drill-client.js';

/**
 * The failover drill (npm run test:failover; docs/operations.md, "High availability"): the app
 * as its own process on a PostgreSQL primary and synchronous standby under Patroni, behind
 * HAProxy (scripts/ha/cluster.sh), under a steady load of deposits. The primary is killed with
 * SIGKILL, the old primary comes back as the standby, then the standby is stopped, started
 * again and killed with SIGKILL; after each, every acknowledged command is in the log exactly
 * once, the read tables match the log, and `verify` passes. The figures go to
 * tmp/failover-last-run.json.
 */
const root = path.resolve(import.meta.dirname, '../..');
const clusterScript = path.join(root, 'scripts/ha/cluster.sh');
const nodePort: Record<string, number> = { node1: 5441, node2: 5442 };

const run = promisify(execFile);

/** scripts/ha/cluster.sh, without blocking this process: the load's clocks keep running meanwhile. */
async function cluster(...args: string[]): Promise<string> {
  const { stdout, stderr } = await run('bash', [clusterScript, ...args], { cwd: root, encoding: 'utf8' });
  if (stderr.trim()) process.stderr.write(stderr);
  return stdout.trim();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Patroni's own account of a node (its REST API). */
async function patroni(node: string): Promise<{ role?: string; state?: string; timeline?: number }> {
  const port = nodePort[node]! + 3000;
  const res = await fetch(`http://127.0.0.1:${port}/patroni`, { signal: AbortSignal.timeout(2_000) }).catch(() => null);
  return res ? ((await res.json()) as { role?: string; state?: string; timeline?: number }) : {};
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

describe('failover drill (PostgreSQL under Patroni, behind HAProxy)', () => {
  let databaseUrl = '';
  let app: ChildProcess | undefined;
  let client: DrillClient;
  let dataDir = '';
  let customers: Customer[] = [];
  let socket: WebSocket | undefined;
  const hints: number[] = [];
  const figures: Record<string, unknown> = {};

  /** Every acknowledged command in the log exactly once, the read tables hold them and match the log (verify). */
  async function checkLedger(load: DepositLoad, url = databaseUrl): Promise<{ events: number; acknowledged: number }> {
    expect(load.conflicts, 'keys answered with two different transactions').toEqual([]);
    const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
    try {
      const { rows } = await sql<{ key: string; n: string }>`
        select metadata->>'idempotencyKey' as key, count(*) as n from events
        where metadata->>'idempotencyKey' is not null group by 1`.execute(database.db);
      const perKey = new Map(rows.map((r) => [r.key, Number(r.n)]));
      const missing = [...load.acked.keys()].filter((k) => !perKey.has(k));
      const twice = [...perKey].filter(([, n]) => n !== 1);
      expect(missing, 'acknowledged commands missing from the log').toEqual([]);
      expect(twice, 'commands recorded more than once').toEqual([]);
      const ids = [...load.acked.values()];
      const inTable = await database.db.selectFrom('transactions').select('id').where('id', 'in', ids).execute();
      expect(inTable, 'acknowledged deposits in the transactions table').toHaveLength(ids.length);
      const report = await verifyReadModels(database.db, new PostgresEventStore(database.db));
      expect(report.ok, JSON.stringify(report.foldMismatches)).toBe(true);
      return { events: rows.length, acknowledged: load.acked.size };
    } finally {
      await database.close();
    }
  }

  /** What the load saw that was not an acknowledgement: each must be a 503 with Retry-After. */
  function failures(load: DepositLoad) {
    const failed = load.attempts.filter((a) => a.status !== 200);
    const unclear = failed.filter((a) => a.status !== 503 || !a.retryAfter);
    return { failed: failed.length, unclear: unclear.map((a) => `${a.status} ${a.error ?? ''}`) };
  }

  beforeAll(async () => {
    const started = Date.now();
    databaseUrl = /^DATABASE_URL=(.+)$/m.exec(await cluster('start'))![1]!;
    figures.clusterStartSeconds = seconds(Date.now() - started);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-failover-'));
    const port = Number(process.env.FAILOVER_PORT ?? (await freePort()));
    const base = `http://127.0.0.1:${port}`;
    // One instance, its limits in its own memory.
    const { REDIS_URL: _redis, REDIS_KEY_PREFIX: _prefix, ...env } = process.env;
    // `node --import tsx`, not the tsx binary (which forks): the app is one process, as deployed.
    app = spawn(process.execPath, ['--import', 'tsx', 'tests/long/server-child.ts'], {
      cwd: root,
      env: {
        ...env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'error',
        DEMO_USERS: 'false',
        RATE_LIMIT_FACTOR: '50',
        PUBLIC_URL: base,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    client = new DrillClient(base);
    await client.waitReady();
    customers = [];
    for (const i of [0, 1, 2]) customers.push(await client.customer(dataDir, `failover-${i}@example.com`));
    socket = client.realtime(customers[0]!, hints);
    await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject));
  }, 600_000);

  afterAll(async () => {
    socket?.close();
    if (app && app.exitCode === null && app.signalCode === null) {
      app.kill('SIGTERM');
      await new Promise((r) => app!.once('exit', r));
    }
    if (Object.keys(figures).length > 0) {
      console.log(`failover drill:\n${JSON.stringify(figures, null, 2)}`);
      fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
      fs.writeFileSync(path.join(root, 'tmp', 'failover-last-run.json'), `${JSON.stringify(figures, null, 2)}\n`);
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    // HA_KEEP=1 leaves the cluster running to look at (scripts/ha/cluster.sh status, then clean).
    if (!process.env.HA_KEEP) await cluster('clean');
  }, 120_000);

  let oldPrimary = '';
  let newPrimary = '';

  it('kill -9 the primary: the standby takes over, the app rides through, nothing acknowledged is lost or doubled', async () => {
    oldPrimary = await cluster('primary');
    const load = new DepositLoad(client, customers);
    const readiness = new ReadinessWatch(client);
    load.start();
    await sleep(3_000);
    // Counted from when the kill returned (the primary's port no longer answers): a command sent
    // while the script ran may still have committed there.
    await cluster('kill', oldPrimary);
    const killAt = Date.now();
    // When Patroni promoted the standby, as its REST API tells.
    const standby = oldPrimary === 'node1' ? 'node2' : 'node1';
    let promotedAt = 0;
    const promotion = (async () => {
      while (!promotedAt && Date.now() < killAt + 120_000) {
        if ((await patroni(standby)).role === 'master') promotedAt = Date.now();
        else await sleep(100);
      }
    })();
    // Until the load is acknowledged again and /readyz is back, then a few seconds more.
    const deadline = Date.now() + 120_000;
    let back = 0;
    while (Date.now() < deadline) {
      const { readyAgainAt } = readiness.outage(killAt);
      const acked = load.acksBetween(killAt, Date.now()).find((a) => a.sentAt > killAt + 500 && a.at > (readyAgainAt ?? Infinity));
      if (acked) {
        back = acked.at;
        break;
      }
      await sleep(200);
    }
    expect(back, 'acknowledgements again after the failover').toBeGreaterThan(0);
    await sleep(3_000);
    await load.stop();
    const end = Date.now();
    await readiness.stop();

    await promotion;
    newPrimary = await cluster('primary');
    expect(newPrimary).not.toBe(oldPrimary);
    // The unavailability window: the last acknowledgement before the kill, and the first of a
    // command first sent after it. Commands sent before the kill and answered after it (a retry
    // of one that committed is answered from what was recorded) are counted apart.
    const firstSent = new Map<string, number>();
    for (const a of load.attempts) if (!firstSent.has(a.key)) firstSent.set(a.key, a.sentAt);
    const acks = load.acksBetween(killAt - 3_000, end);
    const lastBefore = Math.max(...acks.filter((a) => a.at <= killAt).map((a) => a.at));
    const firstAfter = Math.min(...acks.filter((a) => firstSent.get(a.key)! >= killAt).map((a) => a.at));
    const answeredLate = acks.filter((a) => firstSent.get(a.key)! < killAt && a.at > killAt);
    const { notReadyAt, readyAgainAt } = readiness.outage(killAt);
    expect(notReadyAt, '/readyz answered 503 during the switch').toBeDefined();
    expect(readyAgainAt, '/readyz answered 200 after it').toBeDefined();
    expect(readiness.changes.at(-1)?.status).toBe(200);
    const { failed, unclear } = failures(load);
    expect(unclear, 'answers other than an acknowledgement or a 503 with Retry-After').toEqual([]);
    // The realtime feed followed the log again: a hint for a deposit acknowledged after the switch.
    await expect.poll(() => hints.some((t) => t > firstAfter), { timeout: 10_000 }).toBe(true);
    const ledger = await checkLedger(load);
    figures.killPrimary = {
      killed: oldPrimary,
      promoted: newPrimary,
      timeline: (await patroni(newPrimary)).timeline,
      promotedAfterKillMs: promotedAt - killAt,
      unavailableSeconds: seconds(firstAfter - lastBefore),
      lastAcknowledgedBeforeKillMs: lastBefore - killAt,
      firstAcknowledgedAfterKillMs: firstAfter - killAt,
      readyzNotReadyAfterKillMs: notReadyAt! - killAt,
      readyzReadyAgainAfterKillMs: readyAgainAt! - killAt,
      realtimeHintAfterKillMs: hints.find((t) => t > firstAfter)! - killAt,
      sentBeforeKillAcknowledgedAfter: answeredLate.map((a) => a.at - killAt),
      requestsAnswered503: failed,
      commandsAcknowledged: ledger.acknowledged,
      commandsInLog: ledger.events,
    };
  }, 300_000);

  it('the old primary comes back as the synchronous standby, rewound onto the new timeline, holding every acknowledged command', async () => {
    const load = new DepositLoad(client, customers);
    load.start();
    const startedAt = Date.now();
    await cluster('start-node', oldPrimary);
    await cluster('wait-sync', oldPrimary, '180');
    const syncAt = Date.now();
    await sleep(1_000);
    await load.stop();
    const info = await patroni(oldPrimary);
    expect(info.role).toBe('replica');
    expect(info.timeline).toBe((await patroni(newPrimary)).timeline);
    expect(failures(load).failed, 'requests not acknowledged while the standby joined').toBe(0);
    await checkLedger(load);
    // Read on the returned node itself (a standby answers reads): it holds every acknowledged command.
    const direct = new URL(databaseUrl);
    direct.port = String(nodePort[oldPrimary]);
    const standby = await openDatabase({ databaseUrl: direct.toString(), poolSize: 1 });
    try {
      const keys = [...load.acked.keys()];
      await expect
        .poll(
          async () => {
            const { rows } = await sql<{ n: string }>`
              select count(*) as n from events where metadata->>'idempotencyKey' in (${sql.join(keys)})`.execute(standby.db);
            return Number(rows[0]!.n);
          },
          { timeout: 10_000 },
        )
        .toBe(keys.length);
    } finally {
      await standby.close();
    }
    figures.oldPrimaryBack = {
      node: oldPrimary,
      secondsToSyncStandby: seconds(syncAt - startedAt),
      commandsAcknowledgedMeanwhile: load.acked.size,
    };
  }, 300_000);

  it('stop the standby: commits wait until Patroni drops it from the synchronous set, then go on; nothing acknowledged is lost', async () => {
    const standby = oldPrimary;
    const load = new DepositLoad(client, customers);
    const readiness = new ReadinessWatch(client);
    load.start();
    await sleep(2_000);
    const stopAt = Date.now();
    await cluster('stop-node', standby);
    await sleep(8_000);
    await load.stop();
    const end = Date.now();
    await readiness.stop();
    const longestWait = load.longestPause(stopAt, end);
    const acksAfter = load.acksBetween(stopAt + longestWait, end).length;
    expect(acksAfter, 'writes acknowledged with the standby down').toBeGreaterThan(0);
    const { failed, unclear } = failures(load);
    expect(unclear).toEqual([]);
    expect(await cluster('primary')).toBe(newPrimary);
    const ledger = await checkLedger(load);
    // Back again: it catches up and is the synchronous standby once more.
    const restartAt = Date.now();
    await cluster('start-node', standby);
    await cluster('wait-sync', standby, '180');
    figures.stopStandby = {
      stopped: standby,
      longestCommitWaitSeconds: seconds(longestWait),
      requestsAnswered503: failed,
      readyzChanges: readiness.changes.map((c) => ({ afterStopMs: c.at - stopAt, status: c.status })),
      commandsAcknowledged: ledger.acknowledged,
      secondsToSyncStandbyAgain: seconds(Date.now() - restartAt),
    };
  }, 300_000);

  it('kill -9 the standby: commits wait until the primary gives up on it, then go on; nothing acknowledged is lost', async () => {
    // A stopped standby leaves the synchronous set before it goes (Patroni does that first);
    // a lost one cannot, so the primary's commits wait until its Patroni notices.
    const standby = oldPrimary;
    const load = new DepositLoad(client, customers);
    load.start();
    await sleep(2_000);
    const killAt = Date.now();
    await cluster('kill', standby);
    await sleep(8_000);
    await load.stop();
    const end = Date.now();
    const longestWait = load.longestPause(killAt, end);
    expect(load.acksBetween(killAt + longestWait, end).length, 'writes acknowledged with the standby lost').toBeGreaterThan(0);
    const { failed, unclear } = failures(load);
    expect(unclear).toEqual([]);
    expect(await cluster('primary')).toBe(newPrimary);
    const ledger = await checkLedger(load);
    figures.killStandby = {
      killed: standby,
      longestCommitWaitSeconds: seconds(longestWait),
      requestsAnswered503: failed,
      commandsAcknowledged: ledger.acknowledged,
    };
  }, 300_000);
});

/**
 * The HTTP phase of `npm run bench`: starts the app (scripts/bench-server.ts) as a child
 * process against the bench's scratch database and drives it with autocannon from this
 * process over loopback. Every figure is paired with a baseline route on the same Fastify
 * instance and the same pool, measured in alternating rounds (A B, B A).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { BenchUser, ServerMessage } from './bench-server.js';
import { buildServer } from './build-server.js';

const require = createRequire(import.meta.url);
// autocannon ships no types; the part used here is typed below.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}

export interface HttpSizes {
  connections: number;
  users: number;
  /** Seconds per timed run (each pair runs 2 rounds of subject and baseline). */
  seconds: number;
  warmSeconds: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

interface Request {
  method: 'GET' | 'POST';
  path: string;
  /** Builds the body for the n-th request (a different user each time, round robin). */
  body?: (user: BenchUser, n: number) => unknown;
  auth?: boolean;
}

export class BenchServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly dataDir: string,
  ) {}

  static async start(databaseUrl: string, log: (line: string) => void): Promise<BenchServer> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
    // The server runs as `npm start` runs it: built JavaScript under plain node, no TypeScript loader.
    const entry = await buildServer('scripts/bench-server.ts');
    const child = fork(entry, [], {
      // BENCH_CPU_PROF=<dir>: the server writes a .cpuprofile there when it stops.
      execArgv: [
        ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        EVENTSTORE_URL: '',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        JWT_SECRET: randomBytes(32).toString('hex'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
        ACCESS_TOKEN_TTL_SECONDS: '3600',
        // Production asks where links point and where mail goes; the benchmark sends none.
        PUBLIC_URL: 'http://127.0.0.1',
        MAIL_OUTBOX: 'true',
        // A direct connection to PostgreSQL, as a deployment without a pooler runs it (DB_PREPARED_STATEMENTS=false to compare).
        DB_PREPARED_STATEMENTS: process.env.DB_PREPARED_STATEMENTS ?? 'true',
      },
    });
    const ready = await nextMessage(child, 'ready', 120_000);
    log(`http: app listening on 127.0.0.1:${ready.port} (pid ${child.pid})`);
    return new BenchServer(child, ready.port, dataDir);
  }

  async setup(users: number): Promise<BenchUser[]> {
    this.child.send({ type: 'setup', users });
    return (await nextMessage(this.child, 'setup-done', 300_000)).users;
  }

  async rss(): Promise<{ rssMB: number; peakRssMB: number; heapUsedMB: number; heapTotalMB: number; externalMB: number }> {
    this.child.send({ type: 'rss' });
    return nextMessage(this.child, 'rss', 10_000);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.send({ type: 'stop' });
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Drives one route with autocannon for `seconds`. */
  async load(req: Request, users: BenchUser[], connections: number, seconds: number): Promise<LoadResult> {
    let n = 0;
    const result = await autocannon({
      url: `http://127.0.0.1:${this.port}`,
      connections,
      duration: seconds,
      requests: [
        {
          method: req.method,
          path: req.path,
          setupRequest: (r: Record<string, unknown>) => {
            const user = users[n % users.length]!;
            const body = req.body?.(user, n);
            n++;
            const headers: Record<string, string> = {};
            if (req.auth !== false) headers.authorization = `Bearer ${user.token}`;
            if (body !== undefined) headers['content-type'] = 'application/json';
            return {
              ...r,
              headers,
              ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
              path: req.path.replace(':user', user.id),
            };
          },
        },
      ],
    });
    return {
      rps: result.requests.total / Math.max(result.duration, 1e-3),
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    };
  }
}

function nextMessage<T extends ServerMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`the bench server sent no "${type}" within ${timeoutMs / 1000} s`)), timeoutMs);
    const onMessage = (m: ServerMessage) => {
      if (m.type === 'error') done(new Error(`bench server: ${m.message}`));
      else if (m.type === type) done(null, m as Extract<ServerMessage, { type: T }>);
    };
    const onExit = (code: number | null) => done(new Error(`the bench server exited (${code}) before "${type}"`));
    const done = (err: Error | null, value?: Extract<ServerMessage, { type: T }>) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(value!);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export const ROUTES = {
  command: {
    method: 'POST',
    path: '/functions/v1/create-deposit-request',
    body: (u: BenchUser) => ({ tokenId: 'BTC', amount: '0.01', paymentMethodId: u.cardId, userId: u.id }),
  },
  profile: { method: 'POST', path: '/functions/v1/get-user-profile-details', body: (u: BenchUser) => ({ targetUserId: u.id }) },
  transactions: { method: 'GET', path: '/api/v1/transactions?page=1&pageSize=10' },
  insert: { method: 'POST', path: '/bench/insert', auth: false, body: () => ({}) },
  select: { method: 'GET', path: '/bench/select?id=:user', auth: false },
  static: { method: 'GET', path: '/bench/static', auth: false },
} satisfies Record<string, Request>;

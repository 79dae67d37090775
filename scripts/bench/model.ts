/** The benchmark's sizes, targets and result shapes (`npm run bench`, scripts/bench.ts). */
import { round } from './helpers.js';

// ------------------------------------------------------------------------------ sizes

export type BenchSize = 'full' | 'quick' | 'tiny';
export type Phase = 'appends' | 'replay' | 'contention' | 'http' | 'growth';
/** What a run measures unless told (`--only`). The growth phase's logs are far larger than the others': it runs only when asked. */
export const PHASES: Phase[] = ['appends', 'replay', 'contention', 'http'];
export const ALL_PHASES: Phase[] = [...PHASES, 'growth'];

export interface BenchSizes {
  /** Events written one per append (and as many plain insert transactions). */
  singleEvents: number;
  singleWriters: number;
  /** Events written 100 per append (and as many plain autocommit inserts). */
  batchEvents: number;
  batchSize: number;
  batchWriters: number;
  /** Events seeded for the replay. */
  replayEvents: number;
  /** Withdrawals the contention wallet can afford exactly. */
  contentionWithdrawals: number;
  contentionClients: number;
  contentionHandlers: number;
  /** Alternating rounds per append figure. */
  rounds: number;
  /** HTTP phase: autocannon connections, customers created, seconds per timed run and per warm-up. */
  httpConnections: number;
  httpUsers: number;
  httpSeconds: number;
  httpWarmSeconds: number;
  /** Growth phase: the log sizes measured (the first is the baseline of the others), the big wallet's events, clients, seconds per load, cold samples. */
  growthLogs: number[];
  growthBigWallet: number;
  growthClients: number;
  growthSeconds: number;
  growthSamples: number;
  /** Wallets of 100 events the growth phase's command load and page readers act for, the same at every size. */
  growthActiveWallets: number;
  /**
   * How long the growth phase waits before and after each profiled load for the backends to
   * report their statistics (scripts/bench/buffer-misses.ts): PostgreSQL 15 may hold them 10 s.
   */
  growthStatsWaitMs: number;
}

export const COMMON = {
  singleWriters: 32,
  batchSize: 100,
  batchWriters: 8,
  contentionClients: 64,
  contentionHandlers: 4,
  httpConnections: 64,
  httpUsers: 64,
  growthBigWallet: 100_000,
  growthClients: 16,
  growthSamples: 5,
  growthActiveWallets: 200,
  growthStatsWaitMs: 11_000,
};

export const SIZES: Record<BenchSize, BenchSizes> = {
  full: {
    ...COMMON,
    singleEvents: 48_000,
    batchEvents: 80_000,
    replayEvents: 1_000_000,
    contentionWithdrawals: 2_000,
    rounds: 8,
    httpSeconds: 10,
    httpWarmSeconds: 3,
    growthLogs: [100_000, 1_000_000, 10_000_000],
    growthSeconds: 10,
  },
  quick: {
    ...COMMON,
    singleEvents: 16_000,
    batchEvents: 16_000,
    replayEvents: 100_000,
    contentionWithdrawals: 600,
    rounds: 4,
    httpSeconds: 3,
    httpWarmSeconds: 1,
    growthLogs: [100_000, 1_000_000],
    growthSeconds: 5,
  },
  // For the smoke test only: proves that every phase runs, measures nothing worth reading.
  tiny: {
    ...COMMON,
    singleEvents: 320,
    batchEvents: 800,
    replayEvents: 3_000,
    contentionWithdrawals: 20,
    rounds: 2,
    httpUsers: 4,
    httpConnections: 8,
    httpSeconds: 1,
    httpWarmSeconds: 0,
    growthLogs: [1_500, 4_000],
    growthBigWallet: 1_200,
    growthSeconds: 0.5,
    growthSamples: 2,
    growthActiveWallets: 3,
    growthStatsWaitMs: 1_500,
  },
};

/** The issue's targets. */
export const TARGETS = {
  batchVsPlainInserts: 5,
  singleVsPlainTransactions: 0.7,
  replayEventsPerSecond: 75_000,
  replayVsReadAndFold: 0.3,
  commandsPerSecond: 2_000,
  commandP99Ms: 50,
  commandsVsInsertRoute: 0.4,
  readsVsSelectRoute: 0.5,
  serverRssMB: 250,
  /** Against the same figure at the first log size (10^5 events); the cold command against a 100-event wallet's. */
  growth: { coldBigVsSmall: 2, commands: 0.8, readP99: 1.3, replay: 0.8, replayRss: 1.2, catchUpP99: 2 },
};

/**
 * What the issue measured on its own machine, for orientation (2 cores, PostgreSQL 15 on the
 * same machine, load generator on the same cores). The absolute targets above assume that
 * machine; each pair below puts a baseline of this run beside the issue's figure for the same
 * work, so a reader can tell how fast this machine is before reading an absolute pass or fail.
 */
export const ISSUE_MACHINE: readonly {
  id: string;
  side: 'value' | 'baseline';
  name: string;
  unit: string;
  issue: number;
  note?: (f: Figure) => string;
}[] = [
  { id: 'http.static', side: 'value', name: 'static route', unit: 'req/s', issue: 64_000 },
  { id: 'http.reads.profile', side: 'baseline', name: 'SELECT-by-key route', unit: 'req/s', issue: 12_300 },
  { id: 'http.commands', side: 'baseline', name: 'one-INSERT-transaction route', unit: 'req/s', issue: 4_900 },
  { id: 'http.commands.p99', side: 'baseline', name: "that route's p99", unit: 'ms', issue: 33 },
  {
    id: 'replay.all',
    side: 'baseline',
    name: 'read and fold with decimal.js',
    unit: 'events/s',
    issue: 262_000,
    note: (f) => `the issue read 200,000 events, this run ${Number(f.details?.events).toLocaleString('en-US')}`,
  },
];

export interface AgainstIssue {
  name: string;
  unit: string;
  /** This run's figure. */
  here: number;
  /** The issue's. */
  issue: number;
  /** here / issue */
  ratio: number;
  note?: string;
}

/** This run's baselines beside the issue's measurements (`ISSUE_MACHINE`), for the figures the run has. */
export function againstIssueMachine(figures: readonly Figure[]): AgainstIssue[] {
  const out: AgainstIssue[] = [];
  for (const m of ISSUE_MACHINE) {
    const f = figures.find((x) => x.id === m.id);
    if (!f) continue;
    const here = m.side === 'value' ? f.value : f.baseline.value;
    out.push({ name: m.name, unit: m.unit, here, issue: m.issue, ratio: round(here / m.issue, 2), ...(m.note ? { note: m.note(f) } : {}) });
  }
  return out;
}

// ---------------------------------------------------------------------------- results

export interface Figure {
  id: string;
  group: 'appends' | 'replay' | 'contention' | 'http' | 'growth' | 'process';
  name: string;
  unit: string;
  value: number;
  baseline: { name: string; value: number };
  /** value / baseline.value */
  ratio: number;
  target: { text: string; pass: boolean } | null;
  details?: Record<string, unknown>;
}

export interface NotMeasured {
  id: string;
  name: string;
  reason: string;
}

export interface BenchResults {
  machine: {
    platform: string;
    release: string;
    arch: string;
    cpuModel: string;
    cpus: number;
    totalMemoryMB: number;
    postgres: string;
    postgresSettings: Record<string, string>;
    /** 1-minute load average when the run started and when it ended: other work on the machine. */
    loadAverage: { start: number; max: number; end: number };
    /**
     * Whether the run's role may ask for a checkpoint (a superuser or a member of pg_checkpoint):
     * without it every phase pays for the dirty pages and WAL of the one before.
     */
    checkpoints: boolean;
  };
  node: string;
  date: string;
  quick: boolean;
  size: BenchSize;
  sizes: BenchSizes;
  phases: Phase[];
  command: string;
  wallSeconds: number;
  setup: Record<string, unknown>;
  figures: Figure[];
  notMeasured: NotMeasured[];
  /** This machine's baselines beside what the issue measured on its machine (`ISSUE_MACHINE`). */
  againstIssueMachine: AgainstIssue[];
  /** Human-readable lines that show the contention results are exact. */
  proofs: string[];
}

export const NOT_MEASURED: NotMeasured[] = [];

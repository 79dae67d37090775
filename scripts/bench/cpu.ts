/**
 * Where the CPU went during a stretch of load, on a Linux machine that runs both the benchmark
 * and PostgreSQL: this process's time (`process.cpuUsage`), the time of every `postgres`
 * process (its backends, the WAL writer, the checkpointer…) from `/proc/<pid>/stat`, and the
 * share of the machine's cores left idle, from `/proc/stat`. A figure that grows with the log
 * shows here whether the app or the database spends more per operation, or whether the cores
 * were simply full. Elsewhere (no `/proc`, a database on another machine) the PostgreSQL and
 * idle figures are null.
 */
import { readdir, readFile } from 'node:fs/promises';
import { PerformanceObserver } from 'node:perf_hooks';

/** Linux reports process and machine times in clock ticks of 1/100 s (USER_HZ) on x86 and arm64. */
const TICKS_PER_SECOND = 100;

/** This process's garbage collections so far, in ms of pause: counted from the first sample on. */
let gcMs = 0;
let gcObserver: PerformanceObserver | null = null;
function gcSoFar(): number {
  if (!gcObserver) {
    gcObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) gcMs += e.duration;
    });
    gcObserver.observe({ entryTypes: ['gc'] });
  }
  return gcMs;
}

export interface CpuSample {
  appUs: number;
  gcMs: number;
  postgresTicks: number | null;
  machine: { idleTicks: number; totalTicks: number } | null;
}

export interface CpuProfile {
  /** This process's CPU per operation, in ms. */
  appMsPerOp: number;
  /** Of which its garbage collections' pauses (the main thread's), in ms per operation. */
  gcMsPerOp: number;
  /** PostgreSQL's CPU per operation, in ms (all its processes that lived through the load). */
  postgresMsPerOp: number | null;
  /** The share of the machine's CPU time left idle during the load. */
  idleShare: number | null;
}

async function postgresTicks(): Promise<number | null> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  let ticks = 0;
  let found = false;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    // `pid (comm) state ppid …`: the name may hold spaces, so the fields are counted after its ')'.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    ticks += Number(fields[11]) + Number(fields[12]);
    found = true;
  }
  return found ? ticks : null;
}

async function machineTicks(): Promise<CpuSample['machine']> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => null);
  const line = stat?.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  // user nice system idle iowait irq softirq steal
  const t = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { idleTicks: t[3]! + t[4]!, totalTicks: t.reduce((a, b) => a + b, 0) };
}

export async function sampleCpu(): Promise<CpuSample> {
  const { user, system } = process.cpuUsage();
  return { appUs: user + system, gcMs: gcSoFar(), postgresTicks: await postgresTicks(), machine: await machineTicks() };
}

/** The CPU between two samples, per operation. */
export function cpuBetween(before: CpuSample, after: CpuSample, ops: number): CpuProfile {
  const per = (ms: number) => (ops > 0 ? ms / ops : 0);
  const pgTicks = before.postgresTicks !== null && after.postgresTicks !== null ? after.postgresTicks - before.postgresTicks : null;
  const total = before.machine && after.machine ? after.machine.totalTicks - before.machine.totalTicks : 0;
  return {
    appMsPerOp: per((after.appUs - before.appUs) / 1000),
    gcMsPerOp: per(after.gcMs - before.gcMs),
    postgresMsPerOp: pgTicks === null ? null : per((pgTicks * 1000) / TICKS_PER_SECOND),
    idleShare: before.machine && after.machine && total > 0 ? (after.machine.idleTicks - before.machine.idleTicks) / total : null,
  };
}

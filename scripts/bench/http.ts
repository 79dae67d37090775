/** The app through HTTP against baseline routes on the same server (scripts/bench-server.ts). */
import { PROJECTIONS } from '../../projections/registry.js';
import { resetReadModels } from '../../projections/replay.js';
import { BenchServer, ROUTES, type LoadResult } from '../bench-http.js';
import { TARGETS, type Figure } from './model.js';
import { round, type Ctx } from './helpers.js';

/**
 * The app through HTTP, driven by autocannon from this process, next to baseline routes on
 * the same Fastify instance and pool (scripts/bench-server.ts). Each pair warms up both
 * sides, then times them in two rounds in A B / B A order; the ratio is the mean of the
 * two rounds' ratios.
 */
export async function httpPhase(ctx: Ctx): Promise<void> {
  const { pool, sizes, log } = ctx;
  await pool.query('truncate events, streams');
  await resetReadModels(ctx.database.db, PROJECTIONS);
  const server = await BenchServer.start(ctx.databaseUrl, log);
  try {
    log(`http: creating ${sizes.httpUsers} customers with a card and 12 transactions each`);
    const users = await server.setup(sizes.httpUsers);
    const idle = await server.rss();
    const c = sizes.httpConnections;
    const runs: Record<string, { subject: LoadResult[]; baseline: LoadResult[] }> = {};
    const pair = async (id: string, subject: keyof typeof ROUTES, baseline: keyof typeof ROUTES, during?: () => void) => {
      log(
        `http: ${subject} against ${baseline}, ${c} connections, 2 rounds of ${sizes.httpSeconds} s each (after ${sizes.httpWarmSeconds} s warm-up each)`,
      );
      if (sizes.httpWarmSeconds > 0) {
        await server.load(ROUTES[subject], users, c, sizes.httpWarmSeconds);
        await server.load(ROUTES[baseline], users, c, sizes.httpWarmSeconds);
      }
      const r = { subject: [] as LoadResult[], baseline: [] as LoadResult[] };
      for (let round = 0; round < 2; round++) {
        const order = round === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
        for (const side of order) {
          during?.();
          r[side].push(await server.load(ROUTES[side === 'subject' ? subject : baseline], users, c, sizes.httpSeconds));
        }
      }
      runs[id] = r;
      return r;
    };

    // Commands, with the server's RSS sampled every 250 ms while they run.
    let peakUnderLoad = 0;
    /** V8's share of the RSS at the peak sample: heap in use, heap reserved, and buffers outside it. */
    let atPeak = { heapUsedMB: 0, heapTotalMB: 0, externalMB: 0 };
    let sampling = false;
    const sampler = setInterval(() => {
      if (!sampling) return;
      server.rss().then(
        (m) => {
          if (m.rssMB > peakUnderLoad) {
            peakUnderLoad = m.rssMB;
            atPeak = { heapUsedMB: round(m.heapUsedMB, 1), heapTotalMB: round(m.heapTotalMB, 1), externalMB: round(m.externalMB, 1) };
          }
        },
        () => {},
      );
    }, 250);
    let commands;
    try {
      commands = await pair('commands', 'command', 'insert', () => (sampling = true));
    } finally {
      sampling = false;
      clearInterval(sampler);
    }
    const profile = await pair('profile', 'profile', 'select');
    const transactions = await pair('transactions', 'transactions', 'select');
    const staticRoute = await pair('static', 'static', 'select');

    const sum = (xs: LoadResult[]) => ({
      rps: xs.reduce((a, x) => a + x.rps, 0) / xs.length,
      p50: Math.max(...xs.map((x) => x.p50)),
      p99: Math.max(...xs.map((x) => x.p99)),
      requests: xs.reduce((a, x) => a + x.requests, 0),
      non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
      errors: xs.reduce((a, x) => a + x.errors, 0),
    });
    const figure = (
      id: string,
      name: string,
      unit: string,
      r: { subject: LoadResult[]; baseline: LoadResult[] },
      baselineName: string,
      target: ((value: number, ratio: number) => { text: string; pass: boolean }) | null,
    ): Figure => {
      const s = sum(r.subject);
      const b = sum(r.baseline);
      // A round where either side completed nothing (a stalled machine) has no ratio.
      const roundRatios = r.subject.map((x, i) => x.rps / r.baseline[i]!.rps).filter((x) => Number.isFinite(x) && x > 0);
      const ratio = roundRatios.length ? roundRatios.reduce((a, x) => a + x, 0) / roundRatios.length : s.rps / Math.max(b.rps, 1e-9);
      const failed = s.non2xx + s.errors + b.non2xx + b.errors;
      const t = target?.(s.rps, ratio) ?? null;
      return {
        id,
        group: 'http',
        name,
        unit,
        value: round(s.rps),
        baseline: { name: baselineName, value: round(b.rps) },
        ratio: round(ratio, 3),
        target: t && { text: t.text, pass: t.pass && failed === 0 },
        details: {
          connections: c,
          seconds: sizes.httpSeconds,
          subject: { p50Ms: s.p50, p99Ms: s.p99, requests: s.requests, non2xx: s.non2xx, errors: s.errors },
          baseline: { p50Ms: b.p50, p99Ms: b.p99, requests: b.requests, non2xx: b.non2xx, errors: b.errors },
          roundRatios: roundRatios.map((x) => round(x, 3)),
          ratioOfTotals: round(s.rps / b.rps, 3),
          rounds: r,
        },
      };
    };
    const cmd = figure(
      'http.commands',
      `Commands: create-deposit-request, ${c} connections`,
      'commands/s',
      commands,
      'BEGIN; INSERT; COMMIT route',
      (v, ratio) => ({
        text: `>= ${TARGETS.commandsPerSecond.toLocaleString('en-US')}/s and >= ${TARGETS.commandsVsInsertRoute.toFixed(2)}x`,
        pass: v >= TARGETS.commandsPerSecond && ratio >= TARGETS.commandsVsInsertRoute,
      }),
    );
    const cs = sum(commands.subject);
    const cb = sum(commands.baseline);
    ctx.figures.push(
      cmd,
      {
        id: 'http.commands.p99',
        group: 'http',
        name: `Commands: p99 latency (p50 ${cs.p50} ms)`,
        unit: 'ms',
        value: cs.p99,
        baseline: { name: `INSERT route p99 (p50 ${cb.p50} ms)`, value: cb.p99 },
        ratio: round(cs.p99 / Math.max(cb.p99, 1), 3),
        target: { text: `< ${TARGETS.commandP99Ms} ms`, pass: cs.requests > 0 && cs.p99 < TARGETS.commandP99Ms },
      },
      figure(
        'http.reads.profile',
        `Reads: get-user-profile-details, ${c} connections`,
        'req/s',
        profile,
        'SELECT-by-key route',
        (_v, ratio) => ({
          text: `>= ${TARGETS.readsVsSelectRoute.toFixed(2)}x`,
          pass: ratio >= TARGETS.readsVsSelectRoute,
        }),
      ),
      figure(
        'http.reads.transactions',
        `Reads: transactions page, ${c} connections`,
        'req/s',
        transactions,
        'SELECT-by-key route',
        (_v, ratio) => ({
          text: `>= ${TARGETS.readsVsSelectRoute.toFixed(2)}x`,
          pass: ratio >= TARGETS.readsVsSelectRoute,
        }),
      ),
      figure('http.static', `Static route (ceiling of the setup), ${c} connections`, 'req/s', staticRoute, 'SELECT-by-key route', null),
    );
    const rss = await server.rss();
    ctx.figures.push({
      id: 'http.serverRss',
      group: 'http',
      name: 'Server RSS under the command load',
      unit: 'MB',
      value: round(peakUnderLoad, 1),
      baseline: { name: 'server RSS idle, after setup', value: round(idle.rssMB, 1) },
      ratio: round(peakUnderLoad / idle.rssMB, 3),
      target: { text: `< ${TARGETS.serverRssMB} MB`, pass: peakUnderLoad > 0 && peakUnderLoad < TARGETS.serverRssMB },
      details: {
        peakRssMBWholeRun: round(rss.peakRssMB, 1),
        rssMBAtEnd: round(rss.rssMB, 1),
        atPeak,
        idleHeapTotalMB: round(idle.heapTotalMB, 1),
      },
    });
  } finally {
    await server.stop();
  }
}

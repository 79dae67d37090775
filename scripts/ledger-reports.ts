import type { LogVerification } from '../ledger/audit/log-seal.js';
import type { ReplayResult } from '../projections/replay.js';
import type { VerifyReport } from '../projections/verify.js';
import { printJournalCheck } from './ledger-finance.js';

/*
 * What `ledger replay` and `ledger verify` print for an operator: one line a check, `ok` or
 * `FAIL`/`DIFF` first, and under a failure the rows or events that differ.
 */

export function printReplay(results: ReplayResult[], peakRssMB: number): void {
  const r = results[0];
  if (!r) return;
  console.log(
    `${results.map((x) => x.name).join(', ')}: ${r.events.toLocaleString('en-US')} events in ${r.seconds.toFixed(2)} s, ${r.eventsPerSecond.toLocaleString('en-US')} events/s (one pass over the log), peak memory ${peakRssMB} MB`,
  );
}

export function printLogVerification(log: LogVerification): void {
  const chained = log.breakCount === 0 && log.unchained === 0;
  console.log(
    `${chained ? 'ok  ' : 'FAIL'} event log: ${log.events.toLocaleString('en-US')} events in ${log.streams.toLocaleString('en-US')} streams, each hash recomputed from its content`,
  );
  if (log.breakCount > 0) {
    console.log(`     first event that differs: ${log.breaks[0]!.text}`);
    for (const b of log.breaks.slice(1)) console.log(`     also: ${b.text}`);
    if (log.breakCount > log.breaks.length) console.log(`     (${log.breakCount - log.breaks.length} more)`);
  }
  if (log.unchained > 0) console.log(`     ${log.unchained} events are not chained: run \`ledger seal --backfill\` once`);
  for (const s of log.seals)
    console.log(
      `${s.ok ? 'ok  ' : 'FAIL'} seal ${s.sealNumber} (sealed ${s.sealedAt}, events up to ${s.upTo}): recorded ${s.recorded}${s.ok ? '' : `, the log now gives ${s.recomputed}`}`,
    );
  if (log.seals.length === 0) console.log('     no seal yet: run `ledger seal`');
  if (log.kept) console.log(`${log.kept.result === 'proven' ? 'ok  ' : 'FAIL'} seal kept outside ${log.kept.digest}: ${log.kept.text}`);
}

export function printVerify(report: VerifyReport): void {
  for (const p of report.projections) {
    for (const t of p.tables) {
      const same = t.onlyLive.length === 0 && t.onlyRebuilt.length === 0;
      console.log(
        `${same ? 'ok  ' : 'DIFF'} ${p.name}.${t.table}: ${t.liveRows} live rows, ${t.rebuiltRows} rebuilt from ${p.eventsApplied} events up to ${p.position}`,
      );
      for (const r of t.onlyLive) console.log(`     only in live table:    ${JSON.stringify(r)}`);
      for (const r of t.onlyRebuilt) console.log(`     only in rebuilt table: ${JSON.stringify(r)}`);
    }
  }
  console.log(`${report.negativeAvailable.length ? 'FAIL' : 'ok  '} no negative available balance`);
  for (const r of report.negativeAvailable)
    console.log(`     negative: ${r.user_id} ${r.asset_id} balance ${r.balance} pending withdrawals ${r.pending_withdrawals}`);
  console.log(`${report.foldMismatches.length ? 'FAIL' : 'ok  '} balances equal the fold of the events`);
  for (const m of report.foldMismatches) console.log(`     ${m.key}: table ${JSON.stringify(m.table)} fold ${JSON.stringify(m.fold)}`);
  printJournalCheck(report.journal);
  console.log(report.ok ? 'verify: the read tables match the event log.' : 'verify: FAILED');
}

/** The growth phase's figures: each log size's measurements against the first size's (issue 33). */
import type { BufferProfile } from './buffer-misses.js';
import { TARGETS, type Figure } from './model.js';
import { round } from './helpers.js';

/** What one log size measured. */
export interface Measured {
  coldSmallMs: number;
  coldBigMs: number;
  coldBigNoSnapshotMs: number;
  commandsPerSecond: number;
  commandP99Ms: number;
  lagP99Ms: number;
  readP99Ms: number;
  profileP99Ms: number;
  replayEventsPerSecond: number;
  replayRssMB: number;
  bytesPerEvent: number;
  /** The commands' p99 while `ledger replay transactions --shadow` ran, and that run. */
  catchUp: { p99Ms: number; commands: number; seconds: number; swapMs: number };
  /** What PostgreSQL fetched and wrote per operation under each load (scripts/bench/buffer-misses.ts). */
  buffers: { reads: BufferProfile; profile: BufferProfile; commands: BufferProfile };
}

export const sizeLabel = (n: number) => (Math.log10(n) % 1 === 0 ? `10^${Math.log10(n)}` : n.toLocaleString('en-US'));

/** Each figure of a size against the same figure at the first size; the targets where it sets one. */
export function figures(size: number, first: number, m: Measured, base: Measured): Figure[] {
  const label = sizeLabel(size);
  const against = `same figure at ${sizeLabel(first)} events`;
  const grown = size !== first;
  const fig = (
    id: string,
    name: string,
    unit: string,
    value: number,
    baseValue: number,
    target: Figure['target'],
    digits = 1,
    details?: Figure['details'],
  ): Figure => ({
    id: `growth.${id}@${size}`,
    group: 'growth',
    name: `${name} (log ${label})`,
    unit,
    value: round(value, digits),
    baseline: { name: against, value: round(baseValue, digits) },
    ratio: round(value / baseValue, 3),
    target,
    ...(details ? { details } : {}),
  });
  const atLeast = (ratio: number, value: number, baseValue: number) =>
    grown ? { text: `>= ${ratio.toFixed(1)}x`, pass: value / baseValue >= ratio } : null;
  const atMost = (ratio: number, value: number, baseValue: number) =>
    grown ? { text: `<= ${ratio.toFixed(1)}x`, pass: value / baseValue <= ratio } : null;
  const { growth } = TARGETS;
  return [
    {
      id: `growth.cold@${size}`,
      group: 'growth',
      name: `Cold command, big wallet (log ${label})`,
      unit: 'ms',
      // Two decimals: a cold command from a snapshot can take well under a millisecond.
      value: round(m.coldBigMs, 2),
      baseline: { name: 'cold command, 100-event wallet, same log', value: round(m.coldSmallMs, 2) },
      ratio: round(m.coldBigMs / m.coldSmallMs, 3),
      target: { text: `<= ${growth.coldBigVsSmall}x`, pass: m.coldBigMs / m.coldSmallMs <= growth.coldBigVsSmall },
      details: { withoutSnapshotsMs: round(m.coldBigNoSnapshotMs, 1) },
    },
    fig('coldNoSnapshot', 'Cold command, big wallet, no snapshots', 'ms', m.coldBigNoSnapshotMs, base.coldBigNoSnapshotMs, null),
    fig(
      'commands',
      'Commands, 16 clients, answered when visible',
      'commands/s',
      m.commandsPerSecond,
      base.commandsPerSecond,
      atLeast(growth.commands, m.commandsPerSecond, base.commandsPerSecond),
      0,
      { buffers: m.buffers.commands },
    ),
    fig('commands.p99', 'Commands: p99', 'ms', m.commandP99Ms, base.commandP99Ms, null),
    {
      id: `growth.catchUp@${size}`,
      group: 'growth',
      name: `Commands: p99 while a read model catches up (replay --shadow) (log ${label})`,
      unit: 'ms',
      value: round(m.catchUp.p99Ms, 1),
      baseline: { name: 'commands: p99 without it, same log', value: round(m.commandP99Ms, 1) },
      ratio: round(m.catchUp.p99Ms / m.commandP99Ms, 3),
      target: { text: `<= ${growth.catchUpP99}x`, pass: m.catchUp.p99Ms / m.commandP99Ms <= growth.catchUpP99 },
      details: { commands: m.catchUp.commands, replaySeconds: round(m.catchUp.seconds, 2), swapMs: m.catchUp.swapMs },
    },
    fig('lag.p99', 'Projection lag under the command load: p99', 'ms', m.lagP99Ms, base.lagP99Ms, null),
    fig(
      'reads.p99',
      'Transactions page: p99, 16 readers',
      'ms',
      m.readP99Ms,
      base.readP99Ms,
      atMost(growth.readP99, m.readP99Ms, base.readP99Ms),
      2,
      { buffers: m.buffers.reads },
    ),
    fig(
      'profile.p99',
      'Profile (get-user-profile-details): p99, 16 readers',
      'ms',
      m.profileP99Ms,
      base.profileP99Ms,
      atMost(growth.readP99, m.profileP99Ms, base.profileP99Ms),
      2,
      { buffers: m.buffers.profile },
    ),
    fig(
      'replay',
      'Replay all',
      'events/s',
      m.replayEventsPerSecond,
      base.replayEventsPerSecond,
      atLeast(growth.replay, m.replayEventsPerSecond, base.replayEventsPerSecond),
      0,
    ),
    fig(
      'replay.rss',
      'Replay all: peak RSS of the process',
      'MB',
      m.replayRssMB,
      base.replayRssMB,
      atMost(growth.replayRss, m.replayRssMB, base.replayRssMB),
    ),
    fig('bytes', 'Bytes on disk per event', 'bytes', m.bytesPerEvent, base.bytesPerEvent, null, 0),
  ];
}

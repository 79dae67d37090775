import { describe, expect, it } from 'vitest';
import { cpuBetween, sampleCpu } from './cpu.js';

describe('CPU per operation (the growth phase profile)', () => {
  it('divides the app, PostgreSQL and idle time between two samples by the operations', () => {
    const before = { appUs: 1_000_000, gcMs: 100, postgresTicks: 500, machine: { idleTicks: 1_000, totalTicks: 4_000 } };
    const after = { appUs: 3_000_000, gcMs: 300, postgresTicks: 600, machine: { idleTicks: 1_050, totalTicks: 4_200 } };
    // 2 s of this process (0.2 s of it collecting), 100 ticks (1 s) of PostgreSQL, 50 of 200 ticks idle, over 1,000 operations.
    expect(cpuBetween(before, after, 1_000)).toEqual({ appMsPerOp: 2, gcMsPerOp: 0.2, postgresMsPerOp: 1, idleShare: 0.25 });
  });

  it('says nothing of PostgreSQL or the machine where /proc does not show them', () => {
    const sample = { appUs: 0, gcMs: 0, postgresTicks: null, machine: null };
    expect(cpuBetween(sample, { ...sample, appUs: 500 }, 1)).toEqual({
      appMsPerOp: 0.5,
      gcMsPerOp: 0,
      postgresMsPerOp: null,
      idleShare: null,
    });
  });

  it.runIf(process.platform === 'linux')('counts the CPU this process spends, and its collections', async () => {
    const before = await sampleCpu();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += i % 7;
    // Short-lived garbage: the young generation is collected many times over.
    let kept: number[] = [];
    for (let i = 0; i < 200; i++) kept = Array.from({ length: 20_000 }, (_, j) => j + i);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const after = await sampleCpu();
    expect(x + kept.length).toBeGreaterThan(0);
    expect(after.gcMs).toBeGreaterThan(before.gcMs);
    expect(cpuBetween(before, after, 1).appMsPerOp).toBeGreaterThan(1);
    expect(after.machine!.totalTicks).toBeGreaterThanOrEqual(before.machine!.totalTicks);
  });
});

import { describe, expect, it } from 'vitest';
import { cpuBetween, sampleCpu } from './cpu.js';

describe('CPU per operation (the growth phase profile)', () => {
  it('divides the app, PostgreSQL and idle time between two samples by the operations', () => {
    const before = { appUs: 1_000_000, postgresTicks: 500, machine: { idleTicks: 1_000, totalTicks: 4_000 } };
    const after = { appUs: 3_000_000, postgresTicks: 600, machine: { idleTicks: 1_050, totalTicks: 4_200 } };
    // 2 s of this process, 100 ticks (1 s) of PostgreSQL, 50 of 200 ticks idle, over 1,000 operations.
    expect(cpuBetween(before, after, 1_000)).toEqual({ appMsPerOp: 2, postgresMsPerOp: 1, idleShare: 0.25 });
  });

  it('says nothing of PostgreSQL or the machine where /proc does not show them', () => {
    const sample = { appUs: 0, postgresTicks: null, machine: null };
    expect(cpuBetween(sample, { ...sample, appUs: 500 }, 1)).toEqual({ appMsPerOp: 0.5, postgresMsPerOp: null, idleShare: null });
  });

  it.runIf(process.platform === 'linux')('counts the CPU this process spends', async () => {
    const before = await sampleCpu();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += i % 7;
    const after = await sampleCpu();
    expect(x).toBeGreaterThan(0);
    expect(cpuBetween(before, after, 1).appMsPerOp).toBeGreaterThan(1);
    expect(after.machine!.totalTicks).toBeGreaterThanOrEqual(before.machine!.totalTicks);
  });
});

import { describe, expect, it } from 'vitest';
import { dailyBalances } from './balance-history.js';

const at = (iso: string) => new Date(iso);

describe('daily balances', () => {
  it('carries each settlement into its own UTC day and every day after, exactly', () => {
    const days = dailyBalances(
      [
        { assetId: 'BTC', amount: '1.000000000000000001', settledAt: at('2026-11-20T23:59:59.999Z') },
        { assetId: 'BTC', amount: '-0.000000000000000001', settledAt: at('2026-11-21T00:00:00.000Z') },
        { assetId: 'ETH', amount: '2.5', settledAt: at('2026-11-22T10:00:00.000Z') },
      ],
      at('2026-11-23T08:00:00.000Z'),
      4,
    );
    expect(days.map((d) => d.date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(days.map((d) => d.balances.BTC)).toEqual(['1.000000000000000001', '1', '1', '1']);
    expect(days.map((d) => d.balances.ETH)).toEqual(['0', '0', '2.5', '2.5']);
  });

  it('starts from everything settled before the window', () => {
    const days = dailyBalances([{ assetId: 'SOL', amount: '7', settledAt: at('2025-01-01T00:00:00Z') }], at('2026-11-23T00:00:00Z'), 2);
    expect(days.map((d) => d.balances.SOL)).toEqual(['7', '7']);
  });

  it("ignores nothing settled later than now's day and has one entry per day", () => {
    const days = dailyBalances([{ assetId: 'BTC', amount: '1', settledAt: at('2026-11-24T00:00:00Z') }], at('2026-11-23T12:00:00Z'), 30);
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.balances.BTC).toBe('0');
  });
});

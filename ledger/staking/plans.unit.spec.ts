import { describe, expect, it } from 'vitest';
import { Decimal as Base } from 'decimal.js';

const Decimal = Base.clone({ precision: 60, toExpNeg: -60, toExpPos: 60 });
import { checkStakeAmount, estimatedEarnings, findStakePlan, STAKE_PLANS, STAKEABLE_ASSETS } from './plans.js';

/** Section 9's tables, written out as the spec prints them. */
const SHORT_MIN7_AND_MAX: Record<string, [string, string]> = {
  BTC: ['0.0117769844', '2.2376270413'],
  ETH: ['0.19699969781', '37.4294258326'],
  USDT: ['500.3001801081', '95057.034220532'],
  BNB: ['1.6025641026', '304.4871794872'],
  SOL: ['5.034739704', '956.6005437519'],
  ADA: ['951.1128019783', '180711.43237588'],
  DOGE: ['6247.6571285768', '1187054.8544296'],
};
const LONG: Record<string, { min: string; max: [string, string, string] }> = {
  XRP: { min: '1740669', max: ['9740669', '9671064.20404575', '9990669'] },
  LTC: { min: '16147.25', max: ['96147.25', '99147.25', '99947.26'] },
};

describe('stake plan catalogue', () => {
  it('has three plans for each of nine assets and none for DOT', () => {
    expect([...STAKEABLE_ASSETS]).toEqual(['BTC', 'ETH', 'USDT', 'BNB', 'SOL', 'XRP', 'ADA', 'DOGE', 'LTC']);
    expect(findStakePlan('DOT', 7)).toBeNull();
    for (const asset of STAKEABLE_ASSETS) expect(STAKE_PLANS[asset]).toHaveLength(3);
  });

  for (const [asset, [min7, max]] of Object.entries(SHORT_MIN7_AND_MAX)) {
    it(`${asset}: 7/14/30 days at 2.7/4.7/9.1 with minimums x1/x2/x5 of ${min7} and maximum ${max}`, () => {
      const plans = STAKE_PLANS[asset as 'BTC'];
      expect(plans.map((p) => [p.days, p.rate])).toEqual([
        [7, '2.7'],
        [14, '4.7'],
        [30, '9.1'],
      ]);
      expect(plans.map((p) => p.minValue)).toEqual([1, 2, 5].map((k) => new Decimal(min7).times(k).toFixed()));
      expect(plans.map((p) => p.maxValue)).toEqual([max, max, max]);
      for (const plan of plans) {
        const below = new Decimal(plan.minValue).minus('1e-18').toFixed();
        const above = new Decimal(plan.maxValue).plus('1e-18').toFixed();
        expect(checkStakeAmount(plan, asset, plan.minValue, '1e9')).toEqual({ ok: true });
        expect(checkStakeAmount(plan, asset, plan.maxValue, '1e9')).toEqual({ ok: true });
        expect(checkStakeAmount(plan, asset, below, '1e9')).toEqual({
          ok: false,
          message: `Amount must be at least ${plan.minValue} ${asset}`,
        });
        expect(checkStakeAmount(plan, asset, above, '1e9')).toEqual({
          ok: false,
          message: `Amount cannot exceed ${plan.maxValue} ${asset}`,
        });
      }
    });
  }

  for (const [asset, { min, max }] of Object.entries(LONG)) {
    it(`${asset}: 180/365/730 days at 8/12/42 with minimum ${min} and maximums ${max.join(', ')}`, () => {
      const plans = STAKE_PLANS[asset as 'XRP'];
      expect(plans.map((p) => [p.days, p.rate, p.minValue, p.maxValue])).toEqual([
        [180, '8', min, max[0]],
        [365, '12', min, max[1]],
        [730, '42', min, max[2]],
      ]);
      for (const plan of plans) {
        expect(checkStakeAmount(plan, asset, plan.minValue, '1e9').ok).toBe(true);
        expect(checkStakeAmount(plan, asset, new Decimal(plan.maxValue).plus('0.00000001').toFixed(), '1e9')).toEqual({
          ok: false,
          message: `Amount cannot exceed ${plan.maxValue} ${asset}`,
        });
      }
    });
  }

  it('checks in the spec order: positive, then balance, then minimum, then maximum', () => {
    const plan = findStakePlan('BTC', 7)!;
    expect(checkStakeAmount(plan, 'BTC', '0', '5')).toEqual({ ok: false, message: 'Please enter a valid positive amount.' });
    expect(checkStakeAmount(plan, 'BTC', 'abc', '5')).toEqual({ ok: false, message: 'Please enter a valid positive amount.' });
    expect(checkStakeAmount(plan, 'BTC', '3', '0.5')).toEqual({ ok: false, message: 'Insufficient balance. You have 0.5 BTC available.' });
    expect(checkStakeAmount(plan, 'BTC', '0.001', '0.0001')).toEqual({
      ok: false,
      message: 'Insufficient balance. You have 0.0001 BTC available.',
    });
  });

  it('estimates earnings as amount x rate/100 x days/365, rounded down to 18 decimals', () => {
    expect(estimatedEarnings('365', '12', 365)).toBe('43.8');
    expect(estimatedEarnings('1', '2.7', 7)).toBe('0.000517808219178082');
    expect(estimatedEarnings('1740669', '42', 730)).toBe('1462161.96');
  });
});

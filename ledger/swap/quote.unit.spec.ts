import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { quoteSwap, requestIdOf, swapNote } from './quote.js';

const D = Decimal.clone({ precision: 80 });

describe('swap quote', () => {
  it('charges 1% of the from-amount in the from-token and credits amount x from/to less the fee in USD / to', () => {
    // 0.5 BTC at 97,000 to ETH at 3,400: worth 48,500 USD, fee 0.005 BTC = 485 USD.
    const q = quoteSwap('0.5', '97000', '3400');
    expect(q.fee).toBe('0.005');
    expect(q.feeUsd).toBe('485');
    // (48,500 - 485) / 3,400 = 14.1220588235294117647... rounded down to 18 decimals
    expect(q.netReceived).toBe('14.122058823529411764');
    expect(q.rate).toBe('28.529411764705882353');
  });

  it('handles tokens of very different price in both directions without losing the fee', () => {
    // 1,000,000 DOGE at 0.32 to BTC at 97,000: 320,000 USD, fee 10,000 DOGE = 3,200 USD.
    const down = quoteSwap('1000000', '0.32', '97000');
    expect(down.fee).toBe('10000');
    expect(down.feeUsd).toBe('3200');
    expect(down.netReceived).toBe('3.265979381443298969');
    // 0.00000001 BTC (one satoshi) to DOGE: 0.00097 USD, fee 0.0000000001 BTC.
    const up = quoteSwap('0.00000001', '97000', '0.32');
    expect(up.fee).toBe('0.0000000001');
    expect(up.feeUsd).toBe('0.0000097');
    // (0.00097 - 0.0000097) / 0.32
    expect(up.netReceived).toBe('0.0030009375');
  });

  it('never credits more than 99% of the value at the quoted prices, and at most 1e-18 less', () => {
    const amount = fc
      .tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 12 }))
      .map(([n, s]) => new D(n).dividedBy(new D(10).pow(s)).toFixed());
    const price = fc
      .tuple(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 0, max: 6 }))
      .map(([n, s]) => new D(n).dividedBy(new D(10).pow(s)).toFixed());
    fc.assert(
      fc.property(amount, price, price, (a, pf, pt) => {
        const q = quoteSwap(a, pf, pt);
        const exact = new D(a).times(0.99).times(pf).dividedBy(pt);
        const net = new D(q.netReceived);
        expect(net.lte(exact)).toBe(true);
        // The fee is rounded up to 18 decimals, the net down: together at most a few units of 1e-18 away.
        const slack = new D('1e-18').times(new D(1).plus(new D(pf).dividedBy(pt)));
        expect(exact.minus(net).lte(slack)).toBe(true);
        // The fee in USD is the fee in tokens at the from price.
        expect(new D(q.feeUsd).eq(new D(q.fee).times(pf))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses zero amounts and prices', () => {
    expect(() => quoteSwap('0', '1', '1')).toThrow(RangeError);
    expect(() => quoteSwap('1', '0', '1')).toThrow(RangeError);
    expect(() => quoteSwap('1', '1', '-2')).toThrow(RangeError);
  });

  it('writes and reads the request reference both legs carry', () => {
    const id = '3f2b8c1e-2a4d-4e5f-9a6b-7c8d9e0f1a2b';
    expect(swapNote('BTC', 'ETH', id)).toBe(`Swap: BTC → ETH (Req ID: ${id})`);
    expect(requestIdOf(swapNote('BTC', 'ETH', id))).toBe(id);
    expect(requestIdOf('a plain note')).toBeNull();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addAmounts, AmountSums, canonicalAmount, formatAmount, money, negatedAmount, ZERO } from './money.js';

/** Decimal texts as they reach the ledger: canonical, with a numeric column's trailing zeros, signed zeros, exponents. */
const amountText = fc.oneof(
  fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.nat({ max: 18 })).map(([neg, units, scale]) => {
    const digits = units.toString().padStart(scale + 1, '0');
    const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return neg ? `-${text}` : text;
  }),
  fc.constantFrom('0', '-0', '0.0', '-0.000', '1.500000000000000000', '100', '-100.10', '1e-7', '-2.5E+3', '0.000000000000000001'),
);

describe('amount texts', () => {
  it('canonicalAmount is formatAmount of the parsed value, and leaves a canonical text as it is', () => {
    fc.assert(
      fc.property(amountText, (text) => {
        const canonical = formatAmount(money(text));
        expect(canonicalAmount(text)).toBe(canonical);
        expect(canonicalAmount(canonical)).toBe(canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it('negatedAmount is the negation in decimal.js, without a parse', () => {
    fc.assert(
      fc.property(amountText, (text) => {
        expect(negatedAmount(canonicalAmount(text))).toBe(formatAmount(money(text).negated()));
      }),
      { numRuns: 2000 },
    );
  });

  it('addAmounts is the canonical sum', () => {
    fc.assert(
      fc.property(amountText, amountText, (a, b) => {
        expect(addAmounts(a, b)).toBe(formatAmount(money(a).plus(money(b))));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a text that is not a number, as money() does', () => {
    expect(() => canonicalAmount('abc')).toThrow();
    expect(() => addAmounts('1', 'x')).toThrow();
  });

  it('AmountSums keeps exact sums, as decimal.js makes them, also past 18 decimals', () => {
    const longer = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 19, max: 30 }))
      .map(([units, scale]) => money(units.toString()).dividedBy(money(10).pow(scale)).toFixed());
    const entry = fc.tuple(
      fc.constantFrom('a', 'b', 'c'),
      fc.oneof({ weight: 9, arbitrary: amountText }, { weight: 1, arbitrary: longer }),
      fc.constantFrom(1 as const, -1 as const),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        const sums = new AmountSums<string>();
        const expected = new Map<string, ReturnType<typeof money>>();
        for (const [key, text, sign] of entries) {
          sums.add(key, text, sign);
          expected.set(key, (expected.get(key) ?? ZERO).plus(sign === 1 ? money(text) : money(text).negated()));
        }
        for (const key of ['a', 'b', 'c', 'never added']) expect(sums.get(key)).toBe(formatAmount(expected.get(key) ?? ZERO));
      }),
      { numRuns: 2000 },
    );
  });

  it('AmountSums refuses a text that is not a number', () => {
    expect(() => new AmountSums<string>().add('a', 'abc')).toThrow();
    expect(() => new AmountSums<string>().add('a', '')).toThrow();
  });
});

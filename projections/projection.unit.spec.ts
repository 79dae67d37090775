import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampText } from './projection.js';

describe('timestampText', () => {
  it('writes what toISOString writes, for any instant and in any order', () => {
    // From year 0000 to 9999, both sides of the epoch, and beyond (the ±YYYYYY years).
    const instant = fc.oneof(
      fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const ms of instants) expect(timestampText(new Date(ms))).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('moves on at midnight and back to an earlier day', () => {
    const times = [
      '2026-11-24T23:59:59.999Z',
      '2026-11-25T00:00:00.000Z',
      '2026-11-25T00:00:00.001Z',
      '2026-11-24T12:00:00.050Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2024-02-29T07:08:09.010Z',
    ];
    expect(times.map((t) => timestampText(new Date(t)))).toEqual(times);
  });
});

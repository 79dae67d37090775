import { describe, expect, it } from 'vitest';
import { upcast } from './upcast.js';

describe('upcast', () => {
  it('gives a version-0 withdrawal request the amount asked for: the debit less the fee', () => {
    const e = upcast({ type: 'wallet.withdrawal-requested', version: 0, data: { amount: '-10.1', fee: '0.1' } });
    expect(e).toEqual({ type: 'wallet.withdrawal-requested', version: 1, data: { amount: '-10.1', fee: '0.1', requestedAmount: '10' } });
  });

  it('gives a version-0 deposit request the amount plus the fee, exactly at 18 decimals', () => {
    const e = upcast({
      type: 'wallet.deposit-requested',
      version: 0,
      data: { amount: '0.000000000000000099', fee: '0.000000000000000001' },
    });
    expect(e.data).toMatchObject({ requestedAmount: '0.0000000000000001' });
  });

  it('leaves current events untouched', () => {
    const e = { type: 'wallet.deposit-requested', version: 1, data: { amount: '1', fee: '0', requestedAmount: '1' } };
    expect(upcast(e)).toBe(e);
  });
});

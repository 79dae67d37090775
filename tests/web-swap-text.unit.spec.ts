import { describe, expect, it } from 'vitest';
import { pickerLabel, swapButtonLabel } from '../web/src/features/customer/swap/api/swap.js';
import { ASSETS } from '../web/src/features/customer/shared/assets.js';

describe('swap screen texts', () => {
  it('says "Insufficient Balance" only when the amount is more than the balance', () => {
    expect(swapButtonLabel({ permitted: true, amountPositive: false, exceeds: false })).toBe('Enter an amount');
    expect(swapButtonLabel({ permitted: true, amountPositive: true, exceeds: true })).toBe('Insufficient Balance');
    expect(swapButtonLabel({ permitted: true, amountPositive: true, exceeds: false })).toBe('Swap');
    expect(swapButtonLabel({ permitted: false, amountPositive: true, exceeds: false })).toBe('Not Permitted');
  });

  it('names each token once in its picker', () => {
    expect(pickerLabel('USDT', ASSETS.USDT.name)).toBe('USDT · Tether');
    expect(pickerLabel('BNB', ASSETS.BNB.name)).toBe('BNB');
    expect(pickerLabel('BTC', ASSETS.BTC.name)).toBe('BTC · Bitcoin');
  });
});

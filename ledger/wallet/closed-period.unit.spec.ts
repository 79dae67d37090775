import { describe, expect, it } from 'vitest';
import { recorded } from './wallet.arbitraries.js';
import { decide, fold, WalletError, type WalletCommand } from './wallet.js';
import { closedPeriodMessage } from './closed-period.js';

const CLOSED_THROUGH = '2026-01-31T23:59:59.999Z';
const manual = (sentAt: string, amount = '2'): WalletCommand => ({
  ...(recorded(amount, 'Complete', 'BTC') as Extract<WalletCommand, { type: 'RecordTransaction' }>),
  sentAt,
  closedThrough: CLOSED_THROUGH,
});

describe('a closed period of the books', () => {
  it('refuses a manual transaction dated inside it, to the last millisecond, and records nothing', () => {
    for (const sentAt of ['2026-01-15T00:00:00.000Z', CLOSED_THROUGH]) {
      expect(() => decide(manual(sentAt), fold([]))).toThrow(new WalletError('invalid_state', closedPeriodMessage(CLOSED_THROUGH)));
    }
    expect(closedPeriodMessage(CLOSED_THROUGH)).toBe(
      'The books are closed through 2026-01-31. Date this transaction after that; a correction of a closed period is an adjusting entry in the open period.',
    );
  });

  it('accepts the same entry dated in the open period, and any entry when no period is closed', () => {
    const [after] = decide(manual('2026-02-01T00:00:00.000Z'), fold([]));
    expect(after).toMatchObject({ type: 'wallet.transaction-recorded', data: { amount: '2', sentAt: '2026-02-01T00:00:00.000Z' } });
    const open = { ...manual('2026-01-15T00:00:00.000Z'), closedThrough: null } as WalletCommand;
    expect(decide(open, fold([]))[0]!.data).toMatchObject({ amount: '2' });
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandFor, recorded, stepArb } from './wallet.arbitraries.js';
import type { WalletEvent } from './events.js';
import { decide, fold, availableBalance, type WalletState } from './wallet.js';
import { walletSnapshot } from './snapshot.js';
import { walletEventSchemas } from './events.js';
import { stateVersion } from '../snapshots/snapshot.js';
import { UPCASTERS } from '../event-store/upcast.js';
import { money } from '../money.js';

/** A history the decider accepts, built from generated steps (refused commands are left out). */
function history(steps: fc.Arbitrary<Parameters<typeof commandFor>[0][]>): fc.Arbitrary<WalletEvent[]> {
  return steps.map((list) => {
    const events: WalletEvent[] = [];
    for (const step of list) {
      const command = commandFor(step, events);
      if (!command) continue;
      try {
        events.push(...decide(command, fold(events)));
      } catch {
        // refused: nothing recorded
      }
    }
    return events;
  });
}

/** What a snapshot written now and read later gives: through JSON text, as it is stored. */
const throughSnapshot = (state: WalletState): WalletState =>
  walletSnapshot.decode(JSON.parse(JSON.stringify(walletSnapshot.encode(state))));

describe('wallet snapshots', () => {
  it('loading from a snapshot taken after any event, then folding the rest, equals folding from zero', () => {
    fc.assert(
      fc.property(history(fc.array(stepArb, { maxLength: 40 })), fc.nat(), (events, pick) => {
        const cut = events.length === 0 ? 0 : pick % (events.length + 1);
        const fromSnapshot = fold(events.slice(cut), throughSnapshot(fold(events.slice(0, cut))));
        const fromZero = fold(events);
        expect(fromSnapshot).toEqual(fromZero);
        // The same balances and the same decisions after it.
        for (const asset of fromZero.assets.keys())
          expect(availableBalance(fromSnapshot, asset).toFixed()).toBe(availableBalance(fromZero, asset).toFixed());
      }),
      { numRuns: 200 },
    );
  });

  it('keeps amounts exact to 18 decimals and the link between the legs of a swap', () => {
    const events = decide(recorded('0.000000000000000001', 'Complete', 'ETH'), fold([]));
    const restored = throughSnapshot(fold(events));
    expect(availableBalance(restored, 'ETH').toFixed()).toBe('0.000000000000000001');
    const swapState = fold([]);
    swapState.transactions.set('a', { assetId: 'BTC', amount: '-1', status: 'Pending', type: 'swap', linkedTransactionId: 'b' });
    expect(throughSnapshot(swapState).transactions.get('a')).toEqual({
      assetId: 'BTC',
      amount: '-1',
      status: 'Pending',
      type: 'swap',
      linkedTransactionId: 'b',
    });
  });

  it('keeps stakes and requests under the two-person rule', () => {
    const state = fold([]);
    state.stakes.set('s', {
      assetId: 'ETH',
      principal: money('1.5'),
      earnings: money('0.0123'),
      durationDays: 30,
      rate: '0.05',
      maturesAt: '2027-01-01T00:00:00.000Z',
      paid: false,
    });
    const request = {
      requestId: 'r',
      action: 'manual-transaction' as const,
      transactionId: 't',
      assetId: 'BTC' as const,
      amount: '2',
      priceUsd: '60000',
      valueUsd: '120000',
      limitUsd: '1000',
      makerId: 'm',
      makerRole: 'WORKER' as const,
      expiresAt: '2027-01-01T00:00:00.000Z',
      transaction: null,
    };
    state.approvals.set('r', { request, status: 'pending' });
    const restored = throughSnapshot(state);
    expect(restored).toEqual(state);
    expect(restored.stakes.get('s')!.principal.plus(restored.stakes.get('s')!.earnings).toFixed()).toBe('1.5123');
  });

  it('changes its state version when the codec, an event version or an upcaster changes', () => {
    const base = stateVersion(walletSnapshot, walletEventSchemas);
    expect(stateVersion({ ...walletSnapshot, version: walletSnapshot.version + 1 }, walletEventSchemas)).not.toBe(base);
    const bumped = {
      ...walletEventSchemas,
      'wallet.transaction-recorded': { ...walletEventSchemas['wallet.transaction-recorded'], version: 99 },
    };
    expect(stateVersion(walletSnapshot, bumped)).not.toBe(base);
    UPCASTERS['wallet.transaction-recorded'] = { 1: (d) => d };
    try {
      expect(stateVersion(walletSnapshot, walletEventSchemas)).not.toBe(base);
    } finally {
      delete UPCASTERS['wallet.transaction-recorded'];
    }
    expect(stateVersion(walletSnapshot, walletEventSchemas)).toBe(base);
  });
});

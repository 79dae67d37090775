import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandFor, deposit, recorded, stepArb } from './wallet.arbitraries.js';
import type { WalletEvent } from './events.js';
import { decide, fold, availableBalance, type WalletCommand, type WalletState } from './wallet.js';
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

/** What the snapshot store keeps beside a snapshot: every entry the state let go of, by key. */
const archiveOf = (state: WalletState): Map<string, string> => new Map(walletSnapshot.archive!.pending(state));

/** What the command handler does before deciding on a state loaded from a snapshot: read back what the command names. */
function lookUp(state: WalletState, command: WalletCommand, archive: Map<string, string>): WalletState {
  const missing = walletSnapshot.archive!.missing(command, state);
  walletSnapshot.archive!.restore(
    state,
    missing.filter((id) => archive.has(id)).map((id) => [id, archive.get(id)!]),
  );
  return state;
}

/** A decision as a test compares it: the events, or the refusal's text. */
function decision(command: WalletCommand, state: WalletState): unknown {
  try {
    return decide(command, state);
  } catch (err) {
    return { refused: (err as Error).message };
  }
}

/** Commands naming every transaction of the history (settle, fail, edit, reuse its id), and new ones. */
function probes(events: WalletEvent[]): WalletCommand[] {
  const ids = [...new Set(events.flatMap((e) => ('transactionId' in e.data ? [e.data.transactionId] : [])))];
  return [
    ...ids.flatMap((transactionId): WalletCommand[] => [
      { type: 'SettleTransaction', transactionId, by: { system: 'test' } },
      { type: 'FailTransaction', transactionId, reason: null },
      { type: 'EditTransaction', transactionId, note: 'checked' },
      { ...recorded('1', 'Complete', 'BTC'), transactionId } as WalletCommand,
    ]),
    recorded('1', 'Complete', 'BTC'),
    { type: 'SettleTransaction', transactionId: 'not-in-this-wallet', by: { system: 'test' } },
  ];
}

describe('wallet snapshots', () => {
  it('loading from a snapshot taken after any event, then folding the rest, decides as folding from zero', () => {
    fc.assert(
      fc.property(history(fc.array(stepArb, { maxLength: 40 })), fc.nat(), (events, pick) => {
        const cut = events.length === 0 ? 0 : pick % (events.length + 1);
        const atCut = fold(events.slice(0, cut));
        const archive = archiveOf(atCut);
        const fromZero = fold(events);
        const fromSnapshot = () => fold(events.slice(cut), throughSnapshot(atCut));
        const loaded = fromSnapshot();
        // The snapshot holds what is open; what closed before it is beside it, not in it.
        expect(throughSnapshot(atCut).closed.size).toBe(0);
        expect(loaded.transactions).toEqual(fromZero.transactions);
        expect(loaded.assets).toEqual(fromZero.assets);
        expect(loaded.stakes).toEqual(fromZero.stakes);
        expect(loaded.approvals).toEqual(fromZero.approvals);
        for (const asset of fromZero.assets.keys())
          expect(availableBalance(loaded, asset).toFixed()).toBe(availableBalance(fromZero, asset).toFixed());
        // Every command decides the same once what it names is read back.
        for (const command of probes(events)) {
          expect(decision(command, lookUp(fromSnapshot(), command, archive))).toEqual(decision(command, fold(events)));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps only the open transactions in the snapshot, and hands the closed ones over once', () => {
    const [open, done] = [randomUUID(), randomUUID()];
    const opened = decide(deposit('1', 'BTC', open), fold([]));
    const closed = decide(recorded('2', 'Complete', 'BTC', done), fold(opened));
    const state = fold([...opened, ...closed]);
    expect([...state.transactions.keys()]).toEqual([open]);
    expect(walletSnapshot.archive!.pending(state)).toEqual([[done, 'Complete']]);
    walletSnapshot.archive!.stored(state, [done]);
    expect(walletSnapshot.archive!.pending(state)).toEqual([]);
    // Still known to this state: a reused id is refused without reading the archive.
    expect(walletSnapshot.archive!.missing(recorded('1', 'Complete', 'BTC', done), state)).toEqual([]);
    const restored = throughSnapshot(state);
    expect(walletSnapshot.archive!.missing(recorded('1', 'Complete', 'BTC', done), restored)).toEqual([done]);
    expect(() => decide({ type: 'FailTransaction', transactionId: done, reason: null }, restored)).toThrow('Transaction not found.');
    walletSnapshot.archive!.restore(restored, [[done, 'Complete']]);
    expect(() => decide({ type: 'FailTransaction', transactionId: done, reason: null }, restored)).toThrow(
      'A Complete transaction cannot change status; record a correcting transaction instead.',
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

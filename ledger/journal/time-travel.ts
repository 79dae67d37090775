import { ASSET_IDS, type AssetId } from '../assets.js';
import { formatAmount } from '../money.js';
import { formatPosition, type EventStore, type RecordedEvent } from '../event-store/port.js';
import { isWalletEventType, walletStream, type WalletEvent } from '../wallet/events.js';
import { assetBalance, availableBalance, evolve, initialState, type WalletState } from '../wallet/wallet.js';

export interface AssetBalanceAt {
  assetId: AssetId;
  /** The spec's balance: the sum of Complete amounts. */
  balance: string;
  pendingDeposits: string;
  pendingWithdrawals: string;
  /** Spendable: balance plus pending withdrawals. */
  available: string;
}

export interface BalanceAt {
  userId: string;
  /** The moment asked for, or the chosen event's time. */
  at: string;
  /** The last event folded (null when the wallet had none yet). */
  lastEvent: { eventId: string; type: string; revision: string; position: string; recordedAt: string } | null;
  assets: AssetBalanceAt[];
}

export class EventNotInWalletError extends Error {
  constructor(readonly eventId: string) {
    super("This event is not in this customer's wallet.");
    this.name = 'EventNotInWalletError';
  }
}

export function balancesOf(state: WalletState, only?: AssetId): AssetBalanceAt[] {
  return ASSET_IDS.filter((a) => (only ? a === only : state.assets.has(a))).map((assetId) => {
    const b = assetBalance(state, assetId);
    return {
      assetId,
      balance: formatAmount(b.balance),
      pendingDeposits: formatAmount(b.pendingDeposits),
      pendingWithdrawals: formatAmount(b.pendingWithdrawals),
      available: formatAmount(availableBalance(state, assetId)),
    };
  });
}

export function foldWallet(events: RecordedEvent[], state: WalletState = initialState()): WalletState {
  for (const e of events) if (isWalletEventType(e.type)) state = evolve(state, { type: e.type, data: e.data } as WalletEvent);
  return state;
}

/**
 * A customer's balances as they stood at a moment (every event recorded up to it) or just
 * after one of their events: the wallet's own events folded by the decider's evolve.
 */
export async function balanceAt(
  store: EventStore,
  userId: string,
  when: { at: Date } | { eventId: string },
  asset?: AssetId,
): Promise<BalanceAt> {
  const events = await store.readStream(walletStream(userId));
  let upTo: number;
  if ('eventId' in when) {
    upTo = events.findIndex((e) => e.eventId === when.eventId);
    if (upTo < 0) throw new EventNotInWalletError(when.eventId);
  } else {
    upTo = -1;
    for (let i = 0; i < events.length && events[i]!.recordedAt.getTime() <= when.at.getTime(); i++) upTo = i;
  }
  const folded = events.slice(0, upTo + 1);
  const state = foldWallet(folded);
  const last = folded[folded.length - 1];
  return {
    userId,
    at: 'at' in when ? when.at.toISOString() : last!.recordedAt.toISOString(),
    lastEvent: last
      ? {
          eventId: last.eventId,
          type: last.type,
          revision: last.revision.toString(),
          position: formatPosition(last.position),
          recordedAt: last.recordedAt.toISOString(),
        }
      : null,
    assets: balancesOf(state, asset),
  };
}

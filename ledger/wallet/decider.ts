import type { Decider } from '../decider.js';
import { walletEventSchemas, type WalletEvent } from './events.js';
import { walletSnapshot } from './snapshot.js';
import { decide, evolve, initialState, type WalletCommand, type WalletState } from './wallet.js';

export const walletDecider: Decider<WalletCommand, WalletEvent, WalletState> = {
  category: 'wallet',
  initialState,
  evolve,
  decide,
  schemas: walletEventSchemas,
  snapshot: walletSnapshot,
};

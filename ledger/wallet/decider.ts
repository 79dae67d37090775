import type { Decider } from '../decider.js';
import { walletEventSchemas, type WalletEvent } from './events.js';
import { decide, evolve, initialState, type WalletCommand, type WalletState } from './wallet.js';

export const walletDecider: Decider<WalletCommand, WalletEvent, WalletState> = {
  category: 'wallet',
  initialState,
  evolve,
  decide,
  schemas: walletEventSchemas,
};

/**
 * The wallet aggregate, one stream per customer holding all ten assets: its state and evolve
 * (state.ts), its commands and refusals (commands.ts), the shared money rules (rules.ts) and its
 * decisions (decide.ts, marketplace-decisions.ts). The decider itself is in decider.ts.
 */
export {
  assetBalance,
  availableBalance,
  bucketFor,
  effectiveBalance,
  evolve,
  fold,
  initialState,
  type AssetBalance,
  type BalanceBucket,
  type StakeState,
  type WalletState,
} from './state.js';
export { SWAP_MESSAGES, WalletError, type WalletCommand, type WalletErrorCode } from './commands.js';
export { CAPACITY_MESSAGE, FEE_RATE, feeFor } from './rules.js';
export { decide } from './decide.js';

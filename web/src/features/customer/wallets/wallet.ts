import type { Decimal } from 'decimal.js';
import type { AssetId } from '../shared/assets.js';

/** What the Send/Receive modal knows of one asset (spec 001 "Wallets": id, name, balance, price, address). */
export type Wallet = {
  id: AssetId;
  name: string;
  /** Balance plus pending deposits plus pending withdrawals, as the list shows it. */
  balance: Decimal;
  /** Balance plus pending withdrawals, floored at 0. */
  available: Decimal;
  price: Decimal | null;
  /** The deposit address staff assigned, or null when none has been set. */
  address: string | null;
};

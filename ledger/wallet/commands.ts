import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { type TransactionStatus, type TransactionType } from './events.js';
import type { MakerController } from './approvals.js';
import type { StaffAct } from './staff-rule.js';

/** What can be asked of a wallet, and the refusals a caller can show. */
export interface NewTransactionFields {
  transactionId: string;
  assetId: AssetId;
  sentAt: string;
}

export type WalletCommand =
  | ({ type: 'RequestDeposit'; amount: Decimal; paymentMethodId: string } & NewTransactionFields)
  | ({ type: 'RequestWithdrawal'; amount: Decimal; paymentMethodId: string } & NewTransactionFields)
  | ({ type: 'RequestSend'; amount: Decimal; recipientAddress: string } & NewTransactionFields)
  | ({
      type: 'RecordTransaction';
      /** Signed: positive credits the wallet, negative debits it. */
      amount: Decimal;
      status: TransactionStatus;
      txType: TransactionType;
      note: string | null;
      senderAddress: string | null;
      txid: string | null;
      isHidden: boolean;
      reason: string | null;
      /**
       * Staff enter it: the two-person rule decides whether it runs now or waits for a second
       * person. Absent: the system records it (seeding, the books' own tests).
       */
      staff?: StaffAct;
      /** The books are closed through this moment (ledger/books/periods.ts): a `sentAt` on or before it is refused. */
      closedThrough?: string | null;
    } & NewTransactionFields)
  | {
      type: 'RequestSwap';
      requestId: string;
      fromTransactionId: string;
      toTransactionId: string;
      fromAssetId: AssetId;
      toAssetId: AssetId;
      fromAmount: Decimal;
      /** USD prices from the server's own feed, never from the client. */
      fromPrice: Decimal;
      toPrice: Decimal;
      sentAt: string;
    }
  | { type: 'OpenStake'; stakeId: string; assetId: AssetId; amount: Decimal; durationDays: number; rate: Decimal; sentAt: string }
  | { type: 'PayOutStake'; stakeId: string; transactionId: string; now: string }
  | {
      type: 'SettleTransaction';
      transactionId: string;
      /**
       * Who settles: staff (under the two-person rule, unless it is a customer's swap converting)
       * or the system (seeding and tests only: no route sends it).
       */
      by: { staff: StaffAct } | { system: string };
    }
  | { type: 'FailTransaction'; transactionId: string; reason: string | null }
  | { type: 'EditTransaction'; transactionId: string; txType?: TransactionType; note?: string | null; now?: string }
  | {
      type: 'DecideApproval';
      requestId: string;
      approve: boolean;
      checker: { id: string; role: string };
      makerManagerId: string | null;
      /** Who created the maker's account or set its password, and when (separation of duties). */
      makerControllers: MakerController[];
      /** The books are closed through this moment: an approved manual transaction dated on or before it is refused. */
      closedThrough?: string | null;
      separationDays: number;
      reason: string;
      now: string;
    }
  | { type: 'ExpireApproval'; requestId: string; now: string };

export type WalletErrorCode = 'insufficient_balance' | 'invalid_amount' | 'not_found' | 'invalid_state' | 'duplicate' | 'forbidden';

export const SWAP_MESSAGES = {
  sameToken: 'From and to tokens must differ.',
  insufficient: 'Insufficient balance',
  invalidAmount: 'Please ensure you have entered a valid amount and have sufficient balance.',
} as const;

export const DAY_MS = 86_400_000;

/** A refusal the caller can show: `message` is written for the person who asked. */
export class WalletError extends Error {
  constructor(
    readonly code: WalletErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WalletError';
  }
}

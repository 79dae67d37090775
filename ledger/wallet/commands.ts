import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { type TransactionStatus, type TransactionType } from './events.js';
import { type ApprovalAction, type ProposedTransaction, type Valuation } from './approvals.js';

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
      /** The staff member who entered it, and the request a second person approved (four eyes). */
      makerId?: string | null;
      approvalRequestId?: string | null;
      /** Staff ran it at once: the value that was below the limit. */
      valuation?: Valuation;
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
  | { type: 'SettleTransaction'; transactionId: string; approvalRequestId?: string | null; valuation?: Valuation }
  | { type: 'FailTransaction'; transactionId: string; reason: string | null }
  | { type: 'EditTransaction'; transactionId: string; txType?: TransactionType; note?: string | null }
  | {
      type: 'RequestApproval';
      requestId: string;
      action: ApprovalAction;
      transactionId: string;
      assetId: AssetId;
      /** Signed: the effect on the wallet. */
      amount: Decimal;
      priceUsd: Decimal;
      limitUsd: Decimal;
      maker: { id: string; role: 'WORKER' | 'MANAGER' | 'ADMIN' };
      now: string;
      expiresAt: string;
      /** The manual transaction to record once approved; null for a settlement. */
      transaction: ProposedTransaction | null;
    }
  | {
      type: 'DecideApproval';
      requestId: string;
      approve: boolean;
      checker: { id: string; role: string };
      makerManagerId: string | null;
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

import { z } from 'zod';
import { ASSET_IDS } from '../assets.js';
import { approvalEventSchemas, Valuation } from './approvals.js';

/** Wallet events live on `wallet-{userId}`: all ten assets in one stream, so both legs of a swap append atomically. */
export const walletStream = (userId: string) => `wallet-${userId}`;
export const WALLET_STREAM_PREFIX = 'wallet-';

const decimalString = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'decimal string');
export const TransactionStatus = z.enum(['Pending', 'Complete', 'Failed']);
export type TransactionStatus = z.infer<typeof TransactionStatus>;
/** The spec's editable type values; `send` is a withdrawal to an external address. */
export const TransactionType = z.enum(['deposit', 'withdrawal', 'send', 'adjustment', 'swap']);
export type TransactionType = z.infer<typeof TransactionType>;
/** Every type a transaction row can have: the editable ones and the stake's own two, which only the ledger writes. */
export const RowType = z.enum([...TransactionType.options, 'stake', 'stake_payout']);
export type RowType = z.infer<typeof RowType>;

/** Everything a new transaction row holds. `amount` is signed: its effect on the wallet, fee included. */
const OpenedTransaction = z.object({
  transactionId: z.uuid(),
  assetId: z.enum(ASSET_IDS),
  amount: decimalString,
  fee: decimalString,
  sentAt: z.iso.datetime({ offset: true }),
  note: z.string().nullable(),
  senderAddress: z.string().nullable(),
  recipientAddress: z.string().nullable(),
  txid: z.string().nullable(),
  isHidden: z.boolean(),
  requestId: z.uuid().nullable(),
  paymentMethodId: z.uuid().nullable(),
});

const StatusChange = z.object({
  transactionId: z.uuid(),
  assetId: z.enum(ASSET_IDS),
  /** The transaction's amount and kind, carried so that readers need no lookup. */
  amount: decimalString,
  kind: z.enum(['deposit', 'withdrawal', 'send', 'adjustment', 'swap']).optional(),
});

/** One leg of a swap; both legs are appended together and share `requestId`. */
const SwapLeg = OpenedTransaction.extend({
  requestId: z.uuid(),
  leg: z.enum(['from', 'to']),
  linkedTransactionId: z.uuid(),
  fromAssetId: z.enum(ASSET_IDS),
  toAssetId: z.enum(ASSET_IDS),
  fromAmount: decimalString,
  netReceived: decimalString,
  /** The quote the server made from its own price feed (USD per unit). */
  fromPrice: decimalString,
  toPrice: decimalString,
  rate: decimalString,
  feeUsd: decimalString,
});

/** A fixed-term stake: the principal leaves the balance now (amount = -principal, Complete). */
const StakeOpened = OpenedTransaction.extend({
  stakeId: z.uuid(),
  principal: decimalString,
  durationDays: z.number().int().positive(),
  rate: decimalString,
  maturesAt: z.iso.datetime({ offset: true }),
  estimatedEarnings: decimalString,
});

/** At maturity the principal and the earnings come back (amount = principal + earnings, Complete). */
const StakePaidOut = OpenedTransaction.extend({
  stakeId: z.uuid(),
  principal: decimalString,
  earnings: decimalString,
});

/** Event schemas by type; `version` is the schema version written with each event. */
export const walletEventSchemas = {
  'wallet.deposit-requested': { version: 1, schema: OpenedTransaction.extend({ requestedAmount: decimalString }) },
  'wallet.withdrawal-requested': { version: 1, schema: OpenedTransaction.extend({ requestedAmount: decimalString }) },
  /** Crypto sent to an external address: Pending until staff approve it. */
  'wallet.send-requested': { version: 1, schema: OpenedTransaction },
  'wallet.transaction-recorded': {
    version: 1,
    schema: OpenedTransaction.extend({
      type: TransactionType,
      status: TransactionStatus,
      reason: z.string().nullable(),
      /** The staff member who entered it (absent on events written before the rule), and the approved request, if one was needed. */
      makerId: z.uuid().optional(),
      approvalRequestId: z.uuid().optional(),
      valuation: Valuation.optional(),
    }),
  },
  'wallet.transaction-settled': {
    version: 1,
    schema: StatusChange.extend({ approvalRequestId: z.uuid().optional(), valuation: Valuation.optional() }),
  },
  'wallet.transaction-failed': { version: 1, schema: StatusChange.extend({ reason: z.string().nullable() }) },
  'wallet.swap-requested': { version: 1, schema: SwapLeg },
  'wallet.stake-opened': { version: 1, schema: StakeOpened },
  'wallet.stake-paid-out': { version: 1, schema: StakePaidOut },
  'wallet.transaction-edited': {
    version: 1,
    schema: z.object({ transactionId: z.uuid(), type: TransactionType.optional(), note: z.string().nullable().optional() }),
  },
  ...approvalEventSchemas,
} as const;

type Schemas = typeof walletEventSchemas;
export type WalletEventType = keyof Schemas;
export type WalletEventData<T extends WalletEventType> = z.infer<Schemas[T]['schema']>;
/** A wallet event as a decider sees it: the fact, without envelope. */
export type WalletEvent = { [T in WalletEventType]: { type: T; data: WalletEventData<T> } }[WalletEventType];

/** The events that open a transaction row, with its status at opening. */
export function openedStatus(event: WalletEvent): TransactionStatus | null {
  switch (event.type) {
    case 'wallet.deposit-requested':
    case 'wallet.withdrawal-requested':
    case 'wallet.send-requested':
    case 'wallet.swap-requested':
      return 'Pending';
    case 'wallet.transaction-recorded':
      return event.data.status;
    case 'wallet.stake-opened':
    case 'wallet.stake-paid-out':
      return 'Complete';
    default:
      return null;
  }
}

export function isWalletEventType(type: string): type is WalletEventType {
  return Object.prototype.hasOwnProperty.call(walletEventSchemas, type);
}

/** The type a transaction row shows for the event that opened it. */
export function openedType(event: WalletEvent): RowType | null {
  switch (event.type) {
    case 'wallet.deposit-requested':
      return 'deposit';
    case 'wallet.withdrawal-requested':
      return 'withdrawal';
    case 'wallet.send-requested':
      return 'send';
    case 'wallet.transaction-recorded':
      return event.data.type;
    case 'wallet.swap-requested':
      return 'swap';
    case 'wallet.stake-opened':
      return 'stake';
    case 'wallet.stake-paid-out':
      return 'stake_payout';
    default:
      return null;
  }
}

import { z } from 'zod';
import { ASSET_IDS } from '../assets.js';

/** Wallet events live on `wallet-{userId}`: all ten assets in one stream, so both legs of a swap append atomically. */
export const walletStream = (userId: string) => `wallet-${userId}`;
export const WALLET_STREAM_PREFIX = 'wallet-';

const decimalString = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'decimal string');
export const TransactionStatus = z.enum(['Pending', 'Complete', 'Failed']);
export type TransactionStatus = z.infer<typeof TransactionStatus>;
/** The spec's editable type values; `send` is a withdrawal to an external address. */
export const TransactionType = z.enum(['deposit', 'withdrawal', 'send', 'adjustment', 'swap']);
export type TransactionType = z.infer<typeof TransactionType>;

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

/** Event schemas by type; `version` is the schema version written with each event. */
export const walletEventSchemas = {
  'wallet.deposit-requested': { version: 1, schema: OpenedTransaction.extend({ requestedAmount: decimalString }) },
  'wallet.withdrawal-requested': { version: 1, schema: OpenedTransaction.extend({ requestedAmount: decimalString }) },
  /** Crypto sent to an external address: Pending until staff approve it. */
  'wallet.send-requested': { version: 1, schema: OpenedTransaction },
  'wallet.transaction-recorded': {
    version: 1,
    schema: OpenedTransaction.extend({ type: TransactionType, status: TransactionStatus, reason: z.string().nullable() }),
  },
  'wallet.transaction-settled': { version: 1, schema: StatusChange },
  'wallet.transaction-failed': { version: 1, schema: StatusChange.extend({ reason: z.string().nullable() }) },
  'wallet.transaction-edited': {
    version: 1,
    schema: z.object({ transactionId: z.uuid(), type: TransactionType.optional(), note: z.string().nullable().optional() }),
  },
} as const;

type Schemas = typeof walletEventSchemas;
export type WalletEventType = keyof Schemas;
export type WalletEventData<T extends WalletEventType> = z.infer<Schemas[T]['schema']>;
/** A wallet event as a decider sees it: the fact, without envelope. */
export type WalletEvent = { [T in WalletEventType]: { type: T; data: WalletEventData<T> } }[WalletEventType];

export function isWalletEventType(type: string): type is WalletEventType {
  return Object.prototype.hasOwnProperty.call(walletEventSchemas, type);
}

/** The type a transaction row shows for the event that opened it. */
export function openedType(event: WalletEvent): TransactionType | null {
  switch (event.type) {
    case 'wallet.deposit-requested':
      return 'deposit';
    case 'wallet.withdrawal-requested':
      return 'withdrawal';
    case 'wallet.send-requested':
      return 'send';
    case 'wallet.transaction-recorded':
      return event.data.type;
    default:
      return null;
  }
}

import { z } from 'zod';
import { AmountInput, Bytes, Done } from './common.js';
import { TransactionRow } from './transactions.js';
import { ApprovalSchema } from './approvals.js';
import { TransactionStatus, TransactionType } from '../wallet/events.js';

/*
 * The staff's customer profile (spec 002 sections 3-9): bans, notes, passwords, second
 * factors, permissions, addresses, transactions, payment methods, buying links, event trail.
 */

export {
  BuyingLink,
  BuyingLinkAdded,
  BuyingLinks,
  DEFAULT_BUYING_SERVICES,
  LINK_MESSAGES,
  LOGO_MAX_BYTES,
  StaffPaymentMethod,
} from './staff-buying-links.js';

export { Done };

/** The longest dashboard note and manual transaction note staff may write. */
export const NOTE_MAX = 2000;
/** The longest reason staff may give (a second factor removed, a permission turned off). */
export const REASON_MAX = 500;

/** The kinds the event trail can be filtered by (the Event trail tab's filter). */
export const TRAIL_KINDS = ['money', 'kyc', 'access', 'permissions', 'support'] as const;
export type TrailKind = (typeof TRAIL_KINDS)[number];
export const TRAIL_PAGE_SIZE = 25;

/** set-dashboard-note: the customer's dashboard note (empty text or null clears it). */
export const SetDashboardNoteBody = z.object({ userId: z.uuid(), noteContent: z.string().max(NOTE_MAX).nullable() });

/** reset-user-password: the customer's new password (the password rules apply). */
export const ResetUserPasswordBody = z.object({ targetUserId: z.uuid(), newPassword: z.string().max(200) });

/** remove-user-mfa: a customer's second factor removed, with the reason (required). */
export const RemoveMfaBody = z.object({ targetUserId: z.uuid(), reason: z.string().max(REASON_MAX) });

/** update-all-user-permissions: the five permissions, and the reasons shown while sending or swapping is off. */
export const UpdatePermissionsBody = z.object({
  targetUserId: z.uuid(),
  permissions: z.object({
    can_send: z.boolean(),
    can_swap: z.boolean(),
    can_buy: z.boolean(),
    can_sell: z.boolean(),
    can_stake: z.boolean(),
  }),
  sendDisabledNote: z.string().max(REASON_MAX).nullable().optional(),
  swapDisabledNote: z.string().max(REASON_MAX).nullable().optional(),
});

/** set-user-wallet-address: a customer's deposit address of one asset (checked for the asset's network). */
export const SetWalletAddressBody = z.object({
  targetUserId: z.uuid(),
  assetId: z.string().max(10).nullish(),
  newAddress: z.string().max(200).nullish(),
});

/**
 * add-transaction: a manual transaction. The fields are loose so that any missing or wrong one
 * is refused with the spec's one text ('Please fill in all required fields (*).').
 */
export const AddTransactionBody = z.object({
  targetUserId: z.uuid(),
  assetId: z.string().max(10).nullish(),
  sentAt: z.string().max(64).nullish(),
  amount: AmountInput.nullish(),
  status: z.string().max(20).nullish(),
  txid: z.string().max(200).nullish(),
  senderAddress: z.string().max(200).nullish(),
  note: z.string().max(NOTE_MAX).nullish(),
  isHidden: z.boolean().optional(),
});

/** Spec 002: "Editable type values: deposit, withdrawal, adjustment, swap, or unselected" (left out). */
export const EditableTransactionType = TransactionType.exclude(['send']);

/** update-transaction: the staff's Edit Transaction (status, type and note; what is left out stays). */
export const UpdateTransactionBody = z.object({
  targetUserId: z.uuid(),
  transactionId: z.uuid(),
  status: TransactionStatus.optional(),
  type: EditableTransactionType.optional(),
  note: z.string().max(1000).nullable().optional(),
});

/** The Transactions tab's pages: `before` is the id of the last row already shown. */
export const StaffTransactionsQuery = z.object({ before: z.uuid().optional() });

/** The Event trail tab: one page, of one kind or all. */
export const TrailQuery = z.object({
  kind: z.enum(['all', ...TRAIL_KINDS]).default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(TRAIL_PAGE_SIZE),
});

export const Banned = z.object({ success: z.boolean(), banned_until: z.string() });
export const NoteSet = z.object({ success: z.boolean(), dashboard_note: z.string().nullable() });
export const AddressSet = z.object({ message: z.string(), address: z.string() });

/** A manual transaction: added, or waiting for a second person (202) above the four-eyes limit. */
export const TransactionAdded = z.object({
  message: z.string(),
  transactionId: z.string(),
  awaitingApproval: z.boolean().optional(),
  approval: ApprovalSchema.optional(),
});

/** A transaction's changed fields: changed, or unchanged and waiting for a second person (202). */
export const TransactionUpdated = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  awaitingApproval: z.boolean().optional(),
  approval: ApprovalSchema.optional(),
  transaction: z.object({ id: z.string(), status: z.string(), type: z.string(), note: z.string().nullable() }),
});

/** The Transactions tab: every row, hidden ones included, newest first; `next` continues after this page. */
export const StaffTransactionPage = z.object({ transactions: z.array(TransactionRow), next: z.string().nullable() });

export const LogoFile = Bytes("image/png: the link's logo");

/** A maker or a checker in the trail: id (null for the operator's command line), role and name. */
const TrailPerson = z.object({ id: z.string().nullable(), role: z.string().nullable(), name: z.string() });

/** One event of the customer's trail, secrets left out, with who did it. */
export const TrailEvent = z.object({
  id: z.string(),
  stream: z.string(),
  revision: z.string(),
  position: z.string(),
  type: z.string(),
  kind: z.string(),
  occurred_at: z.string(),
  actor: z.object({ id: z.string(), role: z.string(), name: z.string() }),
  /**
   * When the event is a staff action: its readable name and its code (`action`), who did it or asked for it
   * (maker; no id: the operator's command line) and who approved it (checker, null: nobody had to).
   */
  staff_action: z
    .object({
      action: z.string(),
      name: z.string(),
      maker: TrailPerson,
      checker: TrailPerson.nullable(),
    })
    .nullable(),
  summary: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
});
/**
 * Whether the customer's streams verify: each event's hash recomputed from its content and the one
 * before it (docs/finance.md, "A log no one can rewrite"); the first event that does not, named.
 */
export const TrailChain = z.object({
  verified: z.boolean(),
  text: z.string(),
  streams: z.array(
    z.object({
      stream: z.string(),
      events: z.number(),
      verified: z.boolean(),
      first_break: z
        .object({
          revision: z.string(),
          position: z.string(),
          event_id: z.string(),
          type: z.string(),
          problem: z.string(),
          text: z.string(),
        })
        .nullable(),
    }),
  ),
});
export const TrailPage = z.object({
  events: z.array(TrailEvent),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  chain: TrailChain,
});

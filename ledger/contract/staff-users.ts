import { z } from 'zod';
import { Bytes, Done } from './common.js';
import { TransactionRow } from './transactions.js';
import { ApprovalSchema } from './approvals.js';

/*
 * The staff's customer profile (spec 002 sections 3-9): bans, notes, passwords, second
 * factors, permissions, addresses, transactions, payment methods, buying links, event trail.
 */

export {
  BuyingLink,
  BuyingLinks,
  DEFAULT_BUYING_SERVICES,
  LINK_MESSAGES,
  LOGO_MAX_BYTES,
  StaffPaymentMethod,
} from './staff-buying-links.js';

export { Done };

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
  summary: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
});
export const TrailPage = z.object({ events: z.array(TrailEvent), total: z.number(), page: z.number(), pageSize: z.number() });

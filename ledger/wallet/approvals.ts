import { z } from 'zod';
import { ASSET_IDS } from '../assets.js';
import { money } from '../money.js';

/**
 * The two-person rule (maker and checker) on staff actions that move value above the limit
 * (docs/finance.md, "Four eyes"). A request lives in the customer's wallet stream, beside the
 * transactions it would create or settle, so that an approval and its effect are one append
 * under the stream's expected revision: of two checkers at once exactly one wins, and no
 * approval exists without its effect (nor an effect without its approval).
 */

const decimalString = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'decimal string');
const StaffRole = z.enum(['WORKER', 'MANAGER', 'ADMIN']);
export type StaffRole = z.infer<typeof StaffRole>;

/**
 * Why an action waits for a second person: above the single limit, past the maker's or the
 * customer's rolling 24-hour sum, or valued on a price too old or too far from its recent median.
 */
export const WAIT_REASONS = ['over-limit', 'maker-daily', 'customer-daily', 'stale-price', 'price-out-of-band'] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

/** The reasons as the maker and the checker read them. */
export const WAIT_REASON_TEXTS: Record<WaitReason, string> = {
  'over-limit': 'Its value is above the limit for one action.',
  'maker-daily': "It would take the maker's actions of the last 24 hours above the daily limit.",
  'customer-daily': "It would take the staff actions on this customer's wallet in the last 24 hours above the daily limit.",
  'stale-price': 'The price it was valued at is too old to be trusted alone.',
  'price-out-of-band': "The price it was valued at is far from the last hour's median.",
};

export const APPROVAL_ACTIONS = ['manual-transaction', 'settle-transaction'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** What a manual transaction would record once approved (the add-transaction form's fields). */
const ProposedTransaction = z.object({
  sentAt: z.iso.datetime({ offset: true }),
  status: z.enum(['Pending', 'Complete', 'Failed']),
  type: z.enum(['deposit', 'withdrawal', 'send', 'adjustment', 'swap']),
  note: z.string().nullable(),
  senderAddress: z.string().nullable(),
  txid: z.string().nullable(),
  isHidden: z.boolean(),
});
export type ProposedTransaction = z.infer<typeof ProposedTransaction>;

/**
 * How a staff action that ran at once was valued against the limit (it was below it): kept on
 * its event so that `ledger verify` can tell it needed no second person.
 */
export const Valuation = z.object({
  priceUsd: decimalString,
  valueUsd: decimalString,
  limitUsd: decimalString,
  /** Written since the daily sums (absent on older events): the daily limit, the maker and the server's time of the action. */
  dailyLimitUsd: decimalString.optional(),
  makerId: z.uuid().optional(),
  valuedAt: z.iso.datetime({ offset: true }).optional(),
});
export type Valuation = z.infer<typeof Valuation>;

const Decision = z.object({
  requestId: z.uuid(),
  makerId: z.uuid(),
  checkerId: z.uuid(),
  checkerRole: StaffRole,
  reason: z.string(),
});

export const approvalEventSchemas = {
  /** A staff action above the limit, waiting for a second person; it moves nothing yet. */
  'wallet.approval-requested': {
    version: 1,
    schema: z.object({
      requestId: z.uuid(),
      action: z.enum(APPROVAL_ACTIONS),
      transactionId: z.uuid(),
      assetId: z.enum(ASSET_IDS),
      /** Signed, as the transaction's own amount: its effect on the wallet. */
      amount: decimalString,
      /** The USD price used and the value it gave (|amount| x price), against the limit of the moment. */
      priceUsd: decimalString,
      valueUsd: decimalString,
      limitUsd: decimalString,
      makerId: z.uuid(),
      makerRole: StaffRole,
      expiresAt: z.iso.datetime({ offset: true }),
      /** The manual transaction to record once approved; null for a settlement. */
      transaction: ProposedTransaction.nullable(),
      /** Why it waits (absent on events written before the daily sums: above the limit). */
      reasons: z.array(z.enum(WAIT_REASONS)).optional(),
      dailyLimitUsd: decimalString.optional(),
    }),
  },
  'wallet.approval-approved': { version: 1, schema: Decision },
  'wallet.approval-rejected': { version: 1, schema: Decision },
  /** Nobody decided within FOUR_EYES_EXPIRY_HOURS: the request lapses and moves nothing. */
  'wallet.approval-expired': {
    version: 1,
    schema: z.object({ requestId: z.uuid(), makerId: z.uuid(), expiresAt: z.iso.datetime({ offset: true }) }),
  },
} as const;

type Schemas = typeof approvalEventSchemas;
export type ApprovalEventType = keyof Schemas;
export type ApprovalEvent = { [T in ApprovalEventType]: { type: T; data: z.infer<Schemas[T]['schema']> } }[ApprovalEventType];
export type ApprovalRequested = Extract<ApprovalEvent, { type: 'wallet.approval-requested' }>['data'];

export function isApprovalEventType(type: string): type is ApprovalEventType {
  return Object.prototype.hasOwnProperty.call(approvalEventSchemas, type);
}

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';

export interface ApprovalState {
  request: ApprovalRequested;
  status: ApprovalStatus;
}

/** Folds an approval event into the wallet's map of requests (updated in place, as the wallet's evolve does). */
export function evolveApprovals(approvals: Map<string, ApprovalState>, event: ApprovalEvent): void {
  if (event.type === 'wallet.approval-requested') {
    approvals.set(event.data.requestId, { request: event.data, status: 'pending' });
    return;
  }
  const current = approvals.get(event.data.requestId);
  if (!current) return;
  const status: ApprovalStatus =
    event.type === 'wallet.approval-approved' ? 'approved' : event.type === 'wallet.approval-rejected' ? 'rejected' : 'expired';
  approvals.set(event.data.requestId, { ...current, status });
}

/** The refusals of the rule, word for word in the API's answers (docs/api-staff.md). */
export const APPROVAL_MESSAGES = {
  notFound: 'Approval request not found.',
  ownRequest: 'You cannot approve or reject your own request: a second staff member must decide it.',
  worker: 'Access Denied: Only a manager or an admin can approve or reject requests.',
  otherTeam: "Access Denied: Only the maker's manager or an admin can decide this request.",
  adminOnly: "Access Denied: A manager's or an admin's request is decided by an admin.",
  approved: 'This request has already been approved.',
  rejected: 'This request has already been rejected.',
  expired: 'This request has expired.',
  reasonRequired: 'Please give a reason for your decision.',
  alreadyWaiting: 'This transaction is already awaiting a second approval.',
  separation: "You created this maker's account or set their password recently: another manager or an admin must decide this request.",
  swapType: "The type swap belongs to a customer's swap: staff can neither set nor remove it.",
  frozen: 'This transaction is awaiting or has a second approval: only its note can change.',
  unattributed: 'A staff settlement needs the staff member who makes it.',
} as const;

/** A request past its expiry counts as expired even before its expiry event is written. */
export function effectiveStatus(state: ApprovalState, now: string): ApprovalStatus {
  return state.status === 'pending' && Date.parse(now) >= Date.parse(state.request.expiresAt) ? 'expired' : state.status;
}

export interface Checker {
  id: string;
  role: string;
}

/** Someone who created the maker's account or set its password, and when: they could act as the maker. */
export interface MakerController {
  id: string;
  at: string;
}

/**
 * Who may decide a request: never its maker and never a worker; the maker's manager (for a
 * worker's request) or an admin. A manager's or an admin's own request goes to an admin.
 * `makerManagerId` is the maker's manager now. Returns the refusal, or null.
 */
export function checkerRefusal(
  request: Pick<ApprovalRequested, 'makerId' | 'makerRole'>,
  checker: Checker,
  makerManagerId: string | null,
  separation: { controllers: MakerController[]; days: number; now: string } = { controllers: [], days: 0, now: new Date(0).toISOString() },
): string | null {
  if (checker.id === request.makerId) return APPROVAL_MESSAGES.ownRequest;
  if (controlsMaker(checker.id, separation)) return APPROVAL_MESSAGES.separation;
  if (checker.role === 'ADMIN') return null;
  if (checker.role !== 'MANAGER') return APPROVAL_MESSAGES.worker;
  if (request.makerRole !== 'WORKER') return APPROVAL_MESSAGES.adminOnly;
  return makerManagerId === checker.id ? null : APPROVAL_MESSAGES.otherTeam;
}

/**
 * Separation of duties: whoever created the maker's account or set its password within the last
 * `days` could have acted as the maker, so they cannot be the maker's checker.
 */
export function controlsMaker(checkerId: string, separation: { controllers: MakerController[]; days: number; now: string }): boolean {
  const since = Date.parse(separation.now) - separation.days * 86_400_000;
  return separation.controllers.some((c) => c.id === checkerId && Date.parse(c.at) > since);
}

/** The request that waits for, or was approved for, a transaction: while there is one, its money fields and type are frozen. */
export function requestHolding(approvals: Map<string, ApprovalState>, transactionId: string, now?: string): ApprovalState | undefined {
  for (const a of approvals.values()) {
    if (a.request.transactionId !== transactionId) continue;
    // Without the time of the edit, a waiting request counts as waiting.
    const status = now ? effectiveStatus(a, now) : a.status;
    if (status === 'pending' || status === 'approved') return a;
  }
  return undefined;
}

/** True when an action of this USD value needs a second person under `limitUsd` (0: every action). */
export function needsSecondApproval(valueUsd: string, limitUsd: string): boolean {
  const limit = money(limitUsd);
  return limit.isZero() || money(valueUsd).gt(limit);
}

/** The pending request for a transaction, if one waits. */
export function pendingRequestFor(approvals: Map<string, ApprovalState>, transactionId: string, now: string): ApprovalState | undefined {
  for (const a of approvals.values()) {
    if (a.request.transactionId === transactionId && effectiveStatus(a, now) === 'pending') return a;
  }
  return undefined;
}

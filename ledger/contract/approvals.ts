import { z } from 'zod';
import { APPROVAL_ACTIONS } from '../wallet/approvals.js';

/*
 * The two-person rule's requests as the API answers them (docs/api-staff.md, "Approvals"):
 * one definition for the server that writes the answer and the screens that read it.
 */

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A checker's reason for a decision: at most this long. */
export const APPROVAL_REASON_MAX = 500;

/** list-approvals: the requests waiting for the caller (the default), or the caller's own; of one status. */
export const ListApprovalsBody = z
  .object({ scope: z.enum(['waiting', 'mine']).default('waiting'), status: z.enum(APPROVAL_STATUSES).optional() })
  .default({ scope: 'waiting' });

/** decide-approval: approve or reject a request, with a reason (required: an empty one is refused with the spec's text). */
export const DecideApprovalBody = z.object({
  requestId: z.uuid(),
  decision: z.enum(['approve', 'reject']),
  reason: z.string().max(APPROVAL_REASON_MAX).nullish(),
});

/** A request under the two-person rule; amounts and values are decimal strings. */
export const ApprovalSchema = z.object({
  requestId: z.string(),
  userId: z.string(),
  customerEmail: z.string().nullable(),
  customerName: z.string().nullable(),
  action: z.enum(APPROVAL_ACTIONS),
  transactionId: z.string(),
  assetId: z.string(),
  amount: z.string(),
  priceUsd: z.string(),
  valueUsd: z.string(),
  makerId: z.string(),
  makerEmail: z.string().nullable(),
  makerName: z.string().nullable(),
  status: z.enum(APPROVAL_STATUSES),
  checkerId: z.string().nullable(),
  checkerEmail: z.string().nullable(),
  checkerName: z.string().nullable(),
  reason: z.string().nullable(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  decidedAt: z.string().nullable(),
  /** For a checker's list: why this checker may not decide it (separation of duties), or absent. */
  decideRefusal: z.string().optional(),
});
export type Approval = z.infer<typeof ApprovalSchema>;

/**
 * The approvals list: the caller's own requests, those waiting for them with the rule's limit and
 * expiry, or a customer's requests with the rule's limit (the profile's dialogs tell before a
 * submit that an action above it will wait).
 */
export const ApprovalList = z.object({
  approvals: z.array(ApprovalSchema),
  /** FOUR_EYES_LIMIT_USD: a money action of a greater USD value waits for a second person; '0': every one waits. */
  limitUsd: z.string().optional(),
  expiryHours: z.number().optional(),
});

/** A decision: the request as it stands now. */
export const ApprovalDecided = z.object({ success: z.boolean(), approval: ApprovalSchema.optional() });

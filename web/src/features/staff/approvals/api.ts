import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApprovalDecided, ApprovalList, type DecideApprovalBody, type ListApprovalsBody } from '@ledger/contract/approvals.js';
import type { TransactionAdded } from '@ledger/contract/staff-users.js';
import { getJson, postJson } from '@/lib/api-client.js';
import { formatTransactionAmount, formatUsd } from '@/lib/money.js';
import { parseAnswer } from '@/lib/query.js';
import { useRefetchOn } from '@/lib/query-realtime.js';

/** A request under the two-person rule, as the server answers it (docs/api-staff.md, "Approvals"). */
export type { Approval } from '@ledger/contract/approvals.js';
import type { Approval } from '@ledger/contract/approvals.js';

/** What a staff call answers when its action now waits for a second person (add-transaction's and update-transaction's fields). */
export type AwaitingAnswer = Pick<z.infer<typeof TransactionAdded>, 'awaitingApproval' | 'approval'>;

/** A failed call's text when the server gave none (and an answer that does not match the contract). */
export const APPROVALS_FAILED = 'An unexpected error occurred.';

const list = async (answer: Promise<unknown>) => parseAnswer(ApprovalList, await answer, APPROVALS_FAILED);

export const approvalsApi = {
  waiting: (signal?: AbortSignal) =>
    list(postJson('functions/v1/list-approvals', { scope: 'waiting' } satisfies z.input<typeof ListApprovalsBody>, { signal })),
  mine: (signal?: AbortSignal) =>
    list(postJson('functions/v1/list-approvals', { scope: 'mine' } satisfies z.input<typeof ListApprovalsBody>, { signal })),
  decide: async (requestId: string, decision: z.input<typeof DecideApprovalBody>['decision'], reason: string) => {
    const body: z.input<typeof DecideApprovalBody> = { requestId, decision, reason };
    return parseAnswer(ApprovalDecided, await postJson('functions/v1/decide-approval', body), APPROVALS_FAILED);
  },
  forCustomer: (userId: string, signal?: AbortSignal) => list(getJson(`api/v1/users/${userId}/approvals`, { signal })),
};

/** The approvals' cached reads; the realtime 'approvals' hint reads them all again. */
export const approvalKeys = {
  all: ['approvals'] as const,
  waiting: ['approvals', 'waiting'] as const,
  mine: ['approvals', 'mine'] as const,
  customer: (userId: string) => ['approvals', 'customer', userId] as const,
};

/** Requests waiting for this checker (managers and admins only), with the rule's limit. */
export function useWaitingApprovals(checker: boolean) {
  useRefetchOn('approvals', [approvalKeys.waiting]);
  return useQuery({ queryKey: approvalKeys.waiting, enabled: checker, queryFn: ({ signal }) => approvalsApi.waiting(signal) });
}

/** The staff member's own requests and how they ended. */
export function useMyApprovals() {
  useRefetchOn('approvals', [approvalKeys.mine]);
  return useQuery({ queryKey: approvalKeys.mine, queryFn: ({ signal }) => approvalsApi.mine(signal) });
}

/** A customer's requests, for their profile. */
export function useCustomerApprovals(userId: string) {
  useRefetchOn('approvals', [approvalKeys.customer(userId)]);
  return useQuery({ queryKey: approvalKeys.customer(userId), queryFn: ({ signal }) => approvalsApi.forCustomer(userId, signal) });
}

export const ACTION_LABELS: Record<Approval['action'], string> = {
  'manual-transaction': 'Manual transaction',
  'settle-transaction': 'Complete pending transaction',
};

/** `Awaiting second approval: +500.00 BTC ($48,500,000.00), by Wes Worker` and the like. */
export function approvalLine(a: Approval): string {
  const who = (name: string | null, email: string | null) => name || email || 'unknown';
  const what = `${formatTransactionAmount(a.amount)} ${a.assetId} (${formatUsd(a.valueUsd)})`;
  switch (a.status) {
    case 'pending':
      return `Awaiting second approval: ${what}, by ${who(a.makerName, a.makerEmail)}`;
    case 'approved':
      return `Approved by ${who(a.checkerName, a.checkerEmail)}: ${what}, by ${who(a.makerName, a.makerEmail)}. Reason: ${a.reason ?? ''}`;
    case 'rejected':
      return `Rejected by ${who(a.checkerName, a.checkerEmail)}: ${what}, by ${who(a.makerName, a.makerEmail)}. Reason: ${a.reason ?? ''}`;
    default:
      return `Expired without a decision: ${what}, by ${who(a.makerName, a.makerEmail)}`;
  }
}

/** How long ago, in the largest whole unit (5 min, 3 h, 2 d). */
export function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
}

/** The success text of a staff form: the spec's own, or the wait for a second person with amount and maker. */
export function successOrAwaiting(done: string): (answer: unknown) => string {
  return (answer) => {
    const a = (answer as AwaitingAnswer | null)?.approval;
    return (answer as AwaitingAnswer | null)?.awaitingApproval && a ? approvalLine(a) : done;
  };
}

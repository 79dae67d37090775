import { z } from 'zod';

/*
 * The admin's Staff activity list as the API answers it (GET /api/v1/admin/staff-actions,
 * docs/api-staff.md): one definition for the server that writes the rows and the screen.
 */

/**
 * The actions the list names and filters by, sorted: the code each row keeps (`action`) and
 * the name the screen, the CSV and the CLI show (`STAFF_ACTION_LABELS`). Which event is which
 * action is the rule in ledger/audit/staff-actions.ts (STAFF_ACTION_RULES).
 */
export const STAFF_ACTION_NAMES = [
  'address',
  'approval-decision',
  'approval-request',
  'ban',
  'claim',
  'kyc-decision',
  'kyc-document-view',
  'mfa-removal',
  'note',
  'password-reset',
  'permissions',
  'sign-in',
  'staff-create',
  'transaction-add',
  'transaction-edit',
  'transaction-fail',
  'transaction-settle',
  'unban',
] as const;
export const StaffActionName = z.enum(STAFF_ACTION_NAMES);
export type StaffActionName = z.infer<typeof StaffActionName>;

/** Each action's readable name. */
export const STAFF_ACTION_LABELS: Record<StaffActionName, string> = {
  address: 'Wallet address set',
  'approval-decision': 'Approval decision',
  'approval-request': 'Approval requested',
  ban: 'Ban',
  claim: 'Customer claimed',
  'kyc-decision': 'KYC decision',
  'kyc-document-view': 'KYC document opened',
  'mfa-removal': 'Two-factor removed',
  note: 'Dashboard note',
  'password-reset': 'Password reset',
  permissions: 'Permissions changed',
  'sign-in': 'Staff sign-in',
  'staff-create': 'Staff account created',
  'transaction-add': 'Manual transaction',
  'transaction-edit': 'Transaction edited',
  'transaction-fail': 'Transaction failed',
  'transaction-settle': 'Transaction settled',
  unban: 'Unban',
};

/** The readable name of an action code (the code itself for one this version does not know). */
export const staffActionLabel = (code: string): string => STAFF_ACTION_LABELS[code as StaffActionName] ?? code;

/** Rows of a page when the call asks for no other number. */
export const STAFF_ACTIONS_PAGE = 50;

/** A date (2026-03-01: the start of that day for `from`, its end for `to`, in UTC) or an ISO time with its offset. */
const Moment = z.iso.datetime({ offset: true }).or(z.iso.date());

/**
 * The list's query: filters by staff member and customer (an e-mail address or an id), action and
 * time, a page of `limit` rows from `cursor` (the previous page's `nextCursor`), or the whole
 * filtered list as CSV.
 */
export const StaffActionsQuery = z.object({
  staff: z.string().trim().min(1).max(320).optional(),
  customer: z.string().trim().min(1).max(320).optional(),
  action: StaffActionName.optional(),
  from: Moment.optional(),
  to: Moment.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(STAFF_ACTIONS_PAGE),
  format: z.enum(['json', 'csv']).default('json'),
});

/**
 * One staff action: what (`action_name`, and its code `action`), on whose account, when (`at`
 * an ISO time), by whom and where in the log. The maker is who did it (or asked for it); the
 * checker is the second person who approved it, null when none did. A maker with no id is the
 * operator's command line (`maker_role` OPERATOR).
 */
export const StaffActionSchema = z.object({
  at: z.string(),
  action: z.string(),
  action_name: z.string(),
  maker_id: z.string().nullable(),
  maker_email: z.string().nullable(),
  maker_name: z.string().nullable(),
  maker_role: z.string().nullable(),
  checker_id: z.string().nullable(),
  checker_email: z.string().nullable(),
  checker_name: z.string().nullable(),
  checker_role: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_email: z.string().nullable(),
  detail: z.string(),
  event_type: z.string(),
  event_id: z.string(),
  position: z.string(),
});
export type StaffAction = z.infer<typeof StaffActionSchema>;

/** A page of the list, newest first; `nextCursor` fetches the next (older) page, null on the last. */
export const StaffActionPageSchema = z.object({
  actions: z.array(StaffActionSchema),
  nextCursor: z.string().nullable(),
  actionNames: z.array(StaffActionName),
});
export type StaffActionPage = z.infer<typeof StaffActionPageSchema>;

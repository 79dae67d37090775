import { z } from 'zod';

/*
 * The admin's Staff activity list as the API answers it (GET /api/v1/admin/staff-actions,
 * docs/api-staff.md): one definition for the server that writes the rows and the screen.
 */

/**
 * The actions the list names and filters by, sorted. Which event is which action is the read
 * model's rule (STAFF_ACTION_RULES in projections/staff-actions.ts maps event types to these).
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
  'transaction-add',
  'transaction-edit',
  'transaction-status',
  'unban',
] as const;
export const StaffActionName = z.enum(STAFF_ACTION_NAMES);
export type StaffActionName = z.infer<typeof StaffActionName>;

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

/** One staff action: who, on whose account, what, when (`at` an ISO time), and where in the log. */
export const StaffActionSchema = z.object({
  at: z.string(),
  staff_id: z.string(),
  staff_email: z.string().nullable(),
  staff_name: z.string().nullable(),
  staff_role: z.string(),
  customer_id: z.string().nullable(),
  customer_email: z.string().nullable(),
  action: z.string(),
  detail: z.string(),
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

import { z } from 'zod';

/*
 * The admin's Staff activity list as the API answers it (GET /api/v1/admin/staff-actions,
 * docs/api-staff.md): one definition for the server that writes the rows and the screen.
 */

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
  actionNames: z.array(z.string()),
});
export type StaffActionPage = z.infer<typeof StaffActionPageSchema>;

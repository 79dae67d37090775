import { z } from 'zod';

/*
 * Staff teams (spec 002 sections 2, 10, 11): workers claiming customers, managers and their
 * workers, and announcements.
 */

export const FoundUser = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.string() }).nullable(),
  message: z.string().optional(),
});
export const Claimed = z.object({ success: z.boolean(), message: z.string() });
export const OwnedUsers = z.object({
  ownedUsers: z.array(z.object({ user_email: z.string(), profile_user_id: z.string(), profile_created_at: z.string() })),
  totalCount: z.number(),
});
export const Ownership = z.object({ isOwner: z.boolean() });
export const ManagerAccess = z.object({ isAuthorized: z.boolean() });
export const WorkerCreated = z.object({
  success: z.boolean(),
  message: z.string(),
  worker: z.object({ id: z.string(), full_name: z.string(), email: z.string() }),
});
/** Shown once to the manager; it is in no event, log or table. */
export const WorkerPasswordReset = z.object({ success: z.boolean(), temporaryPassword: z.string() });
export const ManagedUsers = z.object({
  users: z.array(
    z.object({
      id: z.string(),
      full_name: z.string(),
      email: z.string(),
      kyc_status: z.string(),
      created_at: z.string(),
      assigned_worker_name: z.string().nullable(),
    }),
  ),
  totalCount: z.number(),
});
/** A manager's workers; with a page asked for, X-Total-Count says how many there are in all. */
export const WorkerList = z.array(z.object({ id: z.string(), full_name: z.string(), email: z.string() }));
export const WorkerManager = z.object({ managerId: z.string().nullable() });

export const Announcement = z.object({ id: z.string(), manager_id: z.string(), message: z.string(), created_at: z.string() });
export const AnnouncementPosted = z.object({ success: z.boolean(), announcement: Announcement.nullable() });
export const Announcements = z.array(Announcement);

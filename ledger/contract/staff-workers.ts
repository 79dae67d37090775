import { z } from 'zod';
import { PageNumber, PageSize } from './common.js';

/*
 * Staff teams (spec 002 sections 2, 10, 11): workers claiming customers, managers and their
 * workers, and announcements.
 */

/** The worker's banner shows this many announcements (spec 002 section 9). */
export const LATEST_ANNOUNCEMENTS = 5;

/** search-user-by-email: the exact address of a customer to claim (an empty one is refused with the spec's text). */
export const SearchUserBody = z.object({ emailToSearch: z.string().max(320).optional() });
/** claim-user: the customer the worker takes on. */
export const ClaimUserBody = z.object({ userIdToClaim: z.uuid() });
/** list-my-users: one page of the worker's customers, or all of them when neither is given. */
export const ListMyUsersBody = z.object({ page: PageNumber.optional(), pageSize: PageSize.optional() }).nullish();
/** check-user-ownership: whether the calling worker owns this customer. */
export const OwnershipBody = z.object({ profileUserId: z.uuid() });
/** create-worker-for-manager: the new worker's name, address and first password (empty fields are refused with the spec's text). */
export const CreateWorkerBody = z.object({
  fullName: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
  password: z.string().max(200).optional(),
});
/** reset-worker-password: the manager's worker who gets a temporary password. */
export const ResetWorkerPasswordBody = z.object({ workerId: z.uuid() });
/** get-users-for-manager: one page of the customers of the manager's workers, optionally searched by name or address. */
export const ManagedUsersBody = z.object({
  page: PageNumber.default(1),
  perPage: PageSize.default(10),
  searchQuery: z.string().max(200).optional().nullable(),
});
/** rpc/get_worker_info: a manager's workers, all or one page. */
export const WorkerInfoBody = z.object({ p_manager_id: z.uuid(), p_page: PageNumber.optional(), p_page_size: PageSize.optional() });
/** rpc/create_announcement: a manager's post to all their workers. */
export const CreateAnnouncementBody = z.object({ p_manager_id: z.uuid(), p_message: z.string().max(10_000) });
/** rpc/get_worker_manager: whose manager. */
export const WorkerManagerBody = z.object({ p_worker_id: z.uuid() });
/** The announcements read: one manager's, newest first, at most LATEST_ANNOUNCEMENTS. */
export const AnnouncementsQuery = z.object({
  manager_id: z.uuid(),
  limit: z.coerce.number().int().min(1).max(LATEST_ANNOUNCEMENTS).default(LATEST_ANNOUNCEMENTS),
});

export const FoundUser = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.string() }).nullable(),
  message: z.string().optional(),
});
export const Claimed = z.object({ success: z.boolean(), message: z.string() });
/** A customer the worker claimed (My Users). */
export const OwnedUser = z.object({ user_email: z.string(), profile_user_id: z.string(), profile_created_at: z.string() });
export type OwnedUser = z.infer<typeof OwnedUser>;
export const OwnedUsers = z.object({ ownedUsers: z.array(OwnedUser), totalCount: z.number() });
export const Ownership = z.object({ isOwner: z.boolean() });
export const ManagerAccess = z.object({ isAuthorized: z.boolean() });
/** One of a manager's workers. */
export const Worker = z.object({ id: z.string(), full_name: z.string(), email: z.string() });
export type Worker = z.infer<typeof Worker>;
export const WorkerCreated = z.object({ success: z.boolean(), message: z.string(), worker: Worker });
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
export const WorkerList = z.array(Worker);
export const WorkerManager = z.object({ managerId: z.string().nullable() });

/** A manager's post to their workers. */
export const Announcement = z.object({ id: z.string(), manager_id: z.string(), message: z.string(), created_at: z.string() });
export type Announcement = z.infer<typeof Announcement>;
export const AnnouncementPosted = z.object({ success: z.boolean(), announcement: Announcement.nullable() });
export const Announcements = z.array(Announcement);

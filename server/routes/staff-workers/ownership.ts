import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TargetUserBody } from '../../../ledger/contract/common.js';
import {
  Claimed,
  ClaimUserBody,
  FoundUser,
  ListMyUsersBody,
  ManagerAccess,
  OwnedUsers,
  Ownership,
  OwnershipBody,
  SearchUserBody,
} from '../../../ledger/contract/staff-workers.js';
import { authOf } from '../../auth/guard.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { UserError } from '../../../ledger/user/user.js';
import { canManageUser, isStaffRole, onlyFor, PROFILE_ROLE_DENIED, STAFF_ROLES } from '../../shared/access.js';
import { pageWindow } from '../../staff/paging.js';
import { HttpError } from '../../errors.js';
import { customerByEmail, ownedCustomers } from './queries.js';

export const autoPrefix = '/functions/v1';

export const CLAIM_CONFLICT = 'Cannot claim user: User may already be assigned or is not claimable.';
const ONLY_WORKERS = 'Access Denied: Only workers can search for and claim users.';

/**
 * A worker finds a customer by exact e-mail and claims them (spec 002, Worker Dashboard),
 * lists the customers they own, and the profile shell asks whether its caller may enter.
 */
const staffOwnershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.authServices;
  const db = accounts.db;
  app.post(
    '/search-user-by-email',
    {
      config: onlyFor(['WORKER'], ONLY_WORKERS),
      schema: { tags: ['functions'], response: { 200: FoundUser }, body: SearchUserBody },
    },
    async (request) => {
      const email = request.body.emailToSearch?.trim() ?? '';
      if (!email) throw badRequest('Please enter an email address.');
      // Exact address (case-insensitive, as sign-in treats it); staff accounts are not customers to claim.
      const user = await customerByEmail(db, email);
      return user ? { user } : { user: null, message: 'User not found.' };
    },
  );

  app.post(
    '/claim-user',
    {
      config: onlyFor(['WORKER'], ONLY_WORKERS),
      schema: { tags: ['functions'], response: { 200: Claimed }, body: ClaimUserBody },
    },
    async (request) => {
      const staff = authOf(request);
      const target = await accounts.findById(request.body.userIdToClaim);
      if (!target) throw notFound('User not found.');
      if (target.role !== 'USER') throw conflict(CLAIM_CONFLICT);
      try {
        await accounts.record(target.id, { type: 'Claim', workerId: staff.userId }, { id: staff.userId, role: staff.role });
      } catch (err) {
        if (err instanceof UserError) throw conflict(CLAIM_CONFLICT);
        throw err;
      }
      // Claiming one's own customer again records nothing: answer as the first claim did.
      return { success: true, message: 'User successfully claimed!' };
    },
  );

  app.post(
    '/list-my-users',
    {
      config: onlyFor(['WORKER'], 'Access Denied: Only workers own users.'),
      schema: {
        tags: ['functions'],
        response: { 200: OwnedUsers },
        body: ListMyUsersBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const window = pageWindow(request.body?.page, request.body?.pageSize);
      const { ownedUsers, totalCount } = await ownedCustomers(db, staff.userId, window);
      return {
        ownedUsers: ownedUsers.map((u) => ({ ...u, profile_created_at: new Date(u.profile_created_at).toISOString() })),
        totalCount,
      };
    },
  );

  // The profile shell's questions. They answer false rather than 403 (the answer reveals
  // nothing); every profile call itself refuses with 403 (access.ts).
  app.post(
    '/check-user-ownership',
    {
      config: onlyFor(STAFF_ROLES, PROFILE_ROLE_DENIED),
      schema: { tags: ['functions'], response: { 200: Ownership }, body: OwnershipBody },
    },
    async (request) => {
      const staff = authOf(request);
      if (!isStaffRole(staff.role)) throw new HttpError(403, PROFILE_ROLE_DENIED);
      return { isOwner: staff.role === 'WORKER' && (await canManageUser(db, staff, request.body.profileUserId)) };
    },
  );

  app.post(
    '/check-manager-user-access',
    {
      config: onlyFor(STAFF_ROLES, PROFILE_ROLE_DENIED),
      schema: { tags: ['functions'], response: { 200: ManagerAccess }, body: TargetUserBody },
    },
    async (request) => {
      const staff = authOf(request);
      if (!isStaffRole(staff.role)) throw new HttpError(403, PROFILE_ROLE_DENIED);
      const { targetUserId } = request.body;
      if (staff.role === 'WORKER') return { isAuthorized: false };
      // An admin reaches every user, but only users that exist.
      if (staff.role === 'ADMIN') return { isAuthorized: Boolean(await accounts.findById(targetUserId)) };
      return { isAuthorized: await canManageUser(db, staff, targetUserId) };
    },
  );
};

export default staffOwnershipRoutes;

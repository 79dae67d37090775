import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Done,
  NoteSet,
  RemoveMfaBody,
  ResetUserPasswordBody,
  SetDashboardNoteBody,
  UpdatePermissionsBody,
} from '../../../ledger/contract/staff-users.js';
import { authOf, type AuthInfo } from '../../auth/guard.js';
import { badRequest } from '../../errors.js';
import { customerInReach, onlyFor } from '../../shared/access.js';
import { passwordProblem } from '../../auth/password-policy.js';
import { permissionNotesOf } from './queries.js';
import { actorOf, MIN_STAFF_RESET_PASSWORD, PROFILE_MESSAGES } from './shared.js';

export const autoPrefix = '/functions/v1';

/**
 * The staff's actions on the General tab of a user profile (spec 002 section 7): dashboard note,
 * password reset, second factor removal, permissions (the Wallets tab's are ./wallets.ts, the
 * masked payment methods ./payment-methods.ts; login history is one call for customers and staff,
 * server/routes/access/login-history.ts). Every call passes the one access rule first and is recorded
 * with the staff member as actor.
 */
const profileGeneralRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = app.authServices;
  const { accounts } = auth;
  const db = app.ledger.database.db;
  const reachableUser = (staff: AuthInfo, userId: string) => customerInReach(accounts, staff, userId);

  app.post(
    '/set-dashboard-note',
    {
      schema: {
        tags: ['functions'],
        response: { 200: NoteSet },
        body: SetDashboardNoteBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      await reachableUser(staff, request.body.userId);
      const note = request.body.noteContent?.trim() || null; // empty text clears the note
      await accounts.record(request.body.userId, { type: 'SetDashboardNote', note }, actorOf(staff));
      return { success: true, dashboard_note: note };
    },
  );

  app.post(
    '/reset-user-password',
    {
      schema: {
        tags: ['functions'],
        response: { 200: Done },
        body: ResetUserPasswordBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { targetUserId, newPassword } = request.body;
      await reachableUser(staff, targetUserId);
      if (!newPassword) throw badRequest(PROFILE_MESSAGES.emptyPassword);
      if (newPassword.length < MIN_STAFF_RESET_PASSWORD) throw badRequest(PROFILE_MESSAGES.shortPassword);
      // The one password rule of every path (password-policy.ts) applies past the screen's 6.
      const problem = passwordProblem(newPassword);
      if (problem) throw badRequest(problem);
      // The flag first, so that no moment exists with the new password and no forced change;
      // changePassword then records the reset (never the password) and ends every session.
      await accounts.record(targetUserId, { type: 'RequirePasswordChange' }, actorOf(staff));
      await accounts.changePassword(targetUserId, newPassword, {
        sessionId: null,
        method: 'staff-reset',
        actor: actorOf(staff),
        log: request.log,
      });
      return { success: true };
    },
  );

  // A customer who lost their authenticator and recovery codes: a manager (their team's
  // customers) or an admin removes the second factor, with a reason that is recorded and mailed.
  app.post(
    '/remove-user-mfa',
    {
      config: onlyFor(['MANAGER', 'ADMIN'], PROFILE_MESSAGES.mfaRoles),
      schema: {
        tags: ['functions'],
        response: { 200: Done },
        body: RemoveMfaBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { targetUserId } = request.body;
      await reachableUser(staff, targetUserId);
      const reason = request.body.reason.trim();
      if (!reason) throw badRequest(PROFILE_MESSAGES.mfaReason);
      await auth.mfa.removeByStaff(targetUserId, reason, actorOf(staff), request.log);
      return { success: true };
    },
  );

  app.post(
    '/update-all-user-permissions',
    {
      schema: {
        tags: ['functions'],
        response: { 200: Done },
        body: UpdatePermissionsBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { targetUserId, permissions: p, sendDisabledNote, swapDisabledNote } = request.body;
      await reachableUser(staff, targetUserId);
      const current = await permissionNotesOf(db, targetUserId);
      if (!current) throw badRequest('Permissions apply to customer accounts only.');
      // A reason is kept only while its permission is off; switching it back on clears it.
      const noteFor = (allowed: boolean, note: string | null | undefined) => (allowed ? null : note?.trim() || null);
      await accounts.record(
        targetUserId,
        {
          type: 'UpdatePermissions',
          permissions: {
            canBuy: p.can_buy,
            canSell: p.can_sell,
            canSwap: p.can_swap,
            canStake: p.can_stake,
            canSend: p.can_send,
            sendDisabledNote: noteFor(p.can_send, sendDisabledNote),
            swapDisabledNote: noteFor(p.can_swap, swapDisabledNote),
            buyDisabledNote: noteFor(p.can_buy, current.buy_disabled_note),
            sellDisabledNote: noteFor(p.can_sell, current.sell_disabled_note),
            stakeDisabledNote: noteFor(p.can_stake, current.stake_disabled_note),
          },
        },
        actorOf(staff),
      );
      return { success: true };
    },
  );
};

export default profileGeneralRoutes;

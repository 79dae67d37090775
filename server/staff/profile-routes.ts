import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddressSet, Done, NoteSet, StaffPaymentMethod, TransactionAdded } from '../../ledger/contract/staff-users.js';
import type { AuthServices } from '../auth/index.js';
import { authOf, type AuthInfo } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { TransactionStatus } from '../../ledger/wallet/events.js';
import { isAssetId } from '../../ledger/assets.js';
import { ADDRESS_SHAPES, isValidAddress } from '../../ledger/addresses.js';
import { requestAmount } from '../shared/amounts.js';
import { assertCanManageUser, customerInReach, onlyFor } from '../shared/access.js';
import { UUID } from '../ids.js';
import { passwordProblem } from '../auth/password-policy.js';
import { AWAITING_SECOND_APPROVAL, type FourEyes } from './four-eyes.js';
import type { Valuation } from '../../ledger/wallet/approvals.js';

/** An admin's reset of a customer's password: at least this long (spec 002 section 9). */
export const MIN_STAFF_RESET_PASSWORD = 6;
const NOTE_MAX = 2000;
const REASON_MAX = 500;
/** How far ahead of the server's clock a manual transaction's sentAt may be: a day, for time zones. */
const SENT_AT_AHEAD_MS = 86_400_000;

export const PROFILE_MESSAGES = {
  emptyPassword: 'New password cannot be empty.',
  shortPassword: 'Password must be at least 6 characters long.',
  missingAddress: 'Missing required information or address is empty.',
  missingTxFields: 'Please fill in all required fields (*).',
  mfaRoles: 'Access Denied: Only managers and admins can remove two-factor authentication.',
  mfaReason: 'Please give a reason for removing two-factor authentication.',
} as const;

const actorOf = (staff: AuthInfo) => ({ id: staff.userId, role: staff.role });

/**
 * The staff's actions on the General and Wallets tabs of a user profile (spec 002 section 7):
 * dashboard note, password reset, permissions, wallet address, manual transactions; and the
 * masked read of the user's payment methods (login history is one call for customers and staff,
 * server/auth/login-history.ts). Every call passes the one access rule first and is recorded
 * with the staff member as actor.
 */
export function staffProfileRoutes(
  auth: AuthServices,
  ledger: LedgerContext,
  fourEyes: FourEyes,
): { functions: FastifyPluginAsyncZod; api: FastifyPluginAsyncZod } {
  const db = ledger.database.db;
  const { accounts } = auth;

  const reachableUser = (staff: AuthInfo, userId: string) => customerInReach(accounts, staff, userId);

  const functions: FastifyPluginAsyncZod = async (app) => {
    app.post(
      '/set-dashboard-note',
      {
        schema: {
          tags: ['functions'],
          response: { 200: NoteSet },
          body: z.object({ userId: z.uuid(), noteContent: z.string().max(NOTE_MAX).nullable() }),
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
          body: z.object({ targetUserId: z.uuid(), newPassword: z.string().max(200) }),
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
          body: z.object({ targetUserId: z.uuid(), reason: z.string().max(REASON_MAX) }),
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
          body: z.object({
            targetUserId: z.uuid(),
            permissions: z.object({
              can_send: z.boolean(),
              can_swap: z.boolean(),
              can_buy: z.boolean(),
              can_sell: z.boolean(),
              can_stake: z.boolean(),
            }),
            sendDisabledNote: z.string().max(REASON_MAX).nullable().optional(),
            swapDisabledNote: z.string().max(REASON_MAX).nullable().optional(),
          }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        const { targetUserId, permissions: p, sendDisabledNote, swapDisabledNote } = request.body;
        await reachableUser(staff, targetUserId);
        const current = await db.selectFrom('user_profiles').selectAll().where('user_id', '=', targetUserId).executeTakeFirst();
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

    app.post(
      '/set-user-wallet-address',
      {
        schema: {
          tags: ['functions'],
          response: { 200: AddressSet },
          body: z.object({ targetUserId: z.uuid(), assetId: z.string().max(10).nullish(), newAddress: z.string().max(200).nullish() }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        const { targetUserId, assetId } = request.body;
        await reachableUser(staff, targetUserId);
        const address = request.body.newAddress?.trim() ?? '';
        if (!address || !isAssetId(assetId)) throw badRequest(PROFILE_MESSAGES.missingAddress);
        if (!isValidAddress(assetId, address))
          throw badRequest(`This is not a valid ${ADDRESS_SHAPES[assetId].network} address for ${assetId}.`);
        await accounts.record(targetUserId, { type: 'SetWalletAddress', assetId, address }, actorOf(staff));
        return { message: 'Address updated successfully!', address };
      },
    );

    app.post(
      '/add-transaction',
      {
        schema: {
          tags: ['functions'],
          response: { 200: TransactionAdded, 202: TransactionAdded },
          body: z.object({
            targetUserId: z.uuid(),
            assetId: z.string().max(10).nullish(),
            sentAt: z.string().max(64).nullish(),
            amount: z.union([z.string().max(64), z.number()]).nullish(),
            status: z.string().max(20).nullish(),
            txid: z.string().max(200).nullish(),
            senderAddress: z.string().max(200).nullish(),
            note: z.string().max(NOTE_MAX).nullish(),
            isHidden: z.boolean().optional(),
          }),
        },
      },
      async (request, reply) => {
        const staff = authOf(request);
        const b = request.body;
        await reachableUser(staff, b.targetUserId);
        const sentAt = b.sentAt ? new Date(b.sentAt) : null;
        // A real moment of the ledger's era: from 1970 to a day ahead (time zones), never a year
        // outside 0001-9999 that the event schema or PostgreSQL would refuse halfway through.
        const sentAtInRange = sentAt !== null && sentAt.getTime() >= 0 && sentAt.getTime() <= Date.now() + SENT_AT_AHEAD_MS;
        const senderAddress = b.senderAddress?.trim() ?? '';
        const status = TransactionStatus.safeParse(b.status);
        if (
          !isAssetId(b.assetId) ||
          !sentAt ||
          !sentAtInRange ||
          b.amount === null ||
          b.amount === undefined ||
          b.amount === '' ||
          !senderAddress ||
          !status.success
        ) {
          throw badRequest(PROFILE_MESSAGES.missingTxFields);
        }
        // The spec's rule is "amount (number > 0)" among the required fields, with their one message.
        const amount = requestAmount(b.amount, PROFILE_MESSAGES.missingTxFields);
        if (amount.lte(0)) throw badRequest(PROFILE_MESSAGES.missingTxFields);
        const note = b.note?.trim() || null;
        const transactionId = randomUUID();
        const proposed = {
          sentAt: sentAt.toISOString(),
          status: status.data,
          type: 'deposit' as const,
          note,
          senderAddress,
          txid: b.txid?.trim() || null,
          isHidden: b.isHidden ?? false,
        };
        // Four eyes: a Complete manual transaction above the limit waits for a second person and moves
        // nothing yet; a Pending one is gated when it is completed, a Failed one moves nothing.
        let valuation: Valuation | undefined;
        if (status.data === 'Complete') {
          const { waiting, valuation: valued } = await fourEyes.requestIfNeeded(
            staff,
            { customerId: b.targetUserId, action: 'manual-transaction', transactionId, assetId: b.assetId, amount, transaction: proposed },
            { ip: request.ip ?? null },
          );
          if (waiting) {
            reply.status(202);
            return { message: AWAITING_SECOND_APPROVAL, transactionId, awaitingApproval: true, approval: waiting };
          }
          valuation = valued;
        }
        await ledger.execute(
          walletDecider,
          b.targetUserId,
          {
            type: 'RecordTransaction',
            transactionId,
            assetId: b.assetId,
            sentAt: proposed.sentAt,
            amount,
            status: status.data,
            txType: 'deposit',
            note,
            senderAddress,
            txid: proposed.txid,
            isHidden: proposed.isHidden,
            reason: note,
            makerId: staff.userId,
            valuation,
          },
          { actor: actorOf(staff), extra: { reason: 'staff manual transaction', ip: request.ip ?? null } },
        );
        return { message: 'Transaction added successfully!', transactionId };
      },
    );
  };

  const api: FastifyPluginAsyncZod = async (app) => {
    // Only what may be shown: brand, last four and expiry of a card; bank name and last four.
    const columns = ['id', 'user_id', 'type', 'card_brand', 'last4', 'expiry_date', 'bank_name', 'bank_last4', 'created_at'] as const;
    const view = <T extends { created_at: Date | string }>(row: T) => ({ ...row, created_at: new Date(row.created_at).toISOString() });

    app.get(
      '/users/:userId/payment-methods',
      {
        schema: {
          tags: ['api'],
          response: { 200: z.object({ paymentMethods: z.array(StaffPaymentMethod) }) },
          params: z.object({ userId: z.uuid() }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        await assertCanManageUser(db, staff, request.params.userId);
        const rows = await db
          .selectFrom('user_payment_methods_raw')
          .select(columns)
          .where('user_id', '=', request.params.userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        return { paymentMethods: rows.map(view) };
      },
    );

    app.get(
      '/users/:userId/payment-methods/:id',
      {
        schema: {
          tags: ['api'],
          response: { 200: z.object({ paymentMethod: StaffPaymentMethod }) },
          params: z.object({ userId: z.uuid(), id: z.string().max(100) }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        await assertCanManageUser(db, staff, request.params.userId);
        const id = UUID.safeParse(request.params.id);
        const row = id.success
          ? await db
              .selectFrom('user_payment_methods_raw')
              .select(columns)
              .where('user_id', '=', request.params.userId)
              .where('id', '=', id.data)
              .executeTakeFirst()
          : undefined;
        if (!row) throw notFound('Payment method not found.');
        return { paymentMethod: view(row) };
      },
    );
  };

  return { functions, api };
}

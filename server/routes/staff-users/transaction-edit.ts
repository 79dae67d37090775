import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TransactionUpdated, UpdateTransactionBody } from '../../../ledger/contract/staff-users.js';
import { authOf } from '../../auth/guard.js';
import { conflict, notFound } from '../../errors.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import { customerInReach } from '../../shared/access.js';
import { AWAITING_SECOND_APPROVAL } from '../../staff/four-eyes.js';
import { isAssetId } from '../../../ledger/assets.js';
import { editableTransaction, editedTransaction } from './queries.js';

export const autoPrefix = '/functions/v1';

/**
 * The staff's Edit Transaction (spec 002: status, type and note). A status change settles
 * or fails the money exactly as the ledger defines; only Pending transactions move.
 */
const staffTransactionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { authServices: auth, ledger, fourEyes } = app;
  const db = ledger.database.db;
  app.post(
    '/update-transaction',
    {
      schema: {
        tags: ['functions'],
        response: { 200: TransactionUpdated, 202: TransactionUpdated },
        body: UpdateTransactionBody,
      },
    },
    async (request, reply) => {
      const staff = authOf(request);
      const { targetUserId, transactionId, status, type, note } = request.body;
      // A customer's transaction only: an admin reaches staff accounts too, their own included.
      await customerInReach(auth.accounts, staff, targetUserId);
      const row = await editableTransaction(db, targetUserId, transactionId);
      if (!row) throw notFound('Transaction not found.');
      if (row.is_hidden) throw conflict("This transaction is hidden from the user's view and cannot be edited.");
      const ctx = { actor: { id: staff.userId, role: staff.role }, extra: { reason: 'staff edit', ip: request.ip ?? null } };
      const statusChange = Boolean(status && status !== row.status);
      // Refuse a status move before recording anything, so a refused save changes nothing.
      if (statusChange && (status === 'Pending' || row.status !== 'Pending')) {
        throw conflict(`A ${row.status} transaction cannot change status; record a correcting transaction instead.`);
      }
      if (!isAssetId(row.asset_id)) throw notFound('Transaction not found.');
      const assetId = row.asset_id;
      // The type as the form sends it is a change only where it differs (the form sends it with every save).
      const txType = type !== undefined && type !== row.type ? type : undefined;
      if (txType !== undefined || note !== undefined) {
        await ledger.execute(
          walletDecider,
          targetUserId,
          {
            type: 'EditTransaction',
            transactionId,
            txType,
            note: note === undefined ? undefined : note?.trim() || null,
            now: fourEyes.now().toISOString(),
          },
          ctx,
        );
      }
      if (statusChange && status === 'Complete') {
        // The wallet decider applies the two-person rule to what settling does to money: a
        // payout or a credit it judges too large waits for a second person; a swap converts.
        const { waiting } = await fourEyes.run(
          staff,
          targetUserId,
          assetId,
          (act) => ({ type: 'SettleTransaction', transactionId, by: { staff: act } }),
          { reason: 'staff edit', ip: request.ip ?? null },
        );
        if (waiting) {
          const unchanged = await editedTransaction(db, transactionId);
          reply.status(202);
          return { success: true, message: AWAITING_SECOND_APPROVAL, awaitingApproval: true, approval: waiting, transaction: unchanged };
        }
      } else if (statusChange) {
        await ledger.execute(walletDecider, targetUserId, { type: 'FailTransaction', transactionId, reason: null }, ctx);
      }
      const updated = await editedTransaction(db, transactionId);
      return { success: true, transaction: updated };
    },
  );
};

export default staffTransactionRoutes;

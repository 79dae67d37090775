import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthServices } from '../auth/index.js';
import { authOf } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { TransactionStatus, TransactionType } from '../../ledger/wallet/events.js';
import { formatAmount, money } from '../../ledger/money.js';
import { assertCanManageUser } from './access.js';

/**
 * The staff's Edit Transaction (spec 002: status, type and note). A status change settles
 * or fails the money exactly as the ledger defines; only Pending transactions move.
 */
export function staffTransactionRoutes(auth: AuthServices, ledger: LedgerContext): FastifyPluginAsyncZod {
  const db = ledger.database.db;
  return async (app) => {
    app.post(
      '/update-transaction',
      {
        preHandler: auth.guard.requireAuth(),
        schema: {
          tags: ['functions'],
          body: z.object({
            targetUserId: z.uuid(),
            transactionId: z.uuid(),
            status: TransactionStatus.optional(),
            type: TransactionType.optional(),
            note: z.string().max(1000).nullable().optional(),
          }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        const { targetUserId, transactionId, status, type, note } = request.body;
        await assertCanManageUser(db, staff, targetUserId);
        const row = await db.selectFrom('transactions').select(['id', 'status', 'is_hidden']).where('id', '=', transactionId).where('user_id', '=', targetUserId).executeTakeFirst();
        if (!row) throw notFound('Transaction not found.');
        if (row.is_hidden) throw conflict("This transaction is hidden from the user's view and cannot be edited.");
        const ctx = { actor: { id: staff.userId, role: staff.role }, extra: { reason: 'staff edit' } };
        const statusChange = Boolean(status && status !== row.status);
        // Refuse a status move before recording anything, so a refused save changes nothing.
        if (statusChange && (status === 'Pending' || row.status !== 'Pending')) {
          throw conflict(`A ${row.status} transaction cannot change status; record a correcting transaction instead.`);
        }
        if (type !== undefined || note !== undefined) {
          await ledger.execute(walletDecider, targetUserId, { type: 'EditTransaction', transactionId, txType: type, note: note === undefined ? undefined : note?.trim() || null }, ctx);
        }
        if (statusChange) {
          await ledger.execute(walletDecider, targetUserId, status === 'Complete' ? { type: 'SettleTransaction', transactionId } : { type: 'FailTransaction', transactionId, reason: null }, ctx);
        }
        const updated = await db.selectFrom('transactions').select(['id', 'status', 'type', 'note']).where('id', '=', transactionId).executeTakeFirstOrThrow();
        return { success: true, transaction: updated };
      },
    );
  };
}

/** The most rows the staff history answers with; a customer's full history fits well below it. */
const STAFF_HISTORY_LIMIT = 2000;

/**
 * The staff's Transactions tab (spec 002: every row of the user, hidden ones included,
 * newest first). Swap legs carry their request id; the screen pairs them.
 */
export function staffTransactionListRoutes(auth: AuthServices, ledger: LedgerContext): FastifyPluginAsyncZod {
  const db = ledger.database.db;
  return async (app) => {
    app.get(
      '/users/:userId/transactions',
      { preHandler: auth.guard.requireAuth(), schema: { tags: ['api'], params: z.object({ userId: z.uuid() }) } },
      async (request) => {
        const staff = authOf(request);
        await assertCanManageUser(db, staff, request.params.userId);
        const rows = await db
          .selectFrom('transactions')
          .selectAll()
          .where('user_id', '=', request.params.userId)
          .orderBy('sent_at', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(STAFF_HISTORY_LIMIT)
          .execute();
        return {
          transactions: rows.map((r) => ({
            id: r.id,
            user_id: r.user_id,
            asset_id: r.asset_id,
            amount: formatAmount(money(r.amount)),
            fee: formatAmount(money(r.fee)),
            type: r.type,
            status: r.status,
            sent_at: new Date(r.sent_at).toISOString(),
            created_at: new Date(r.created_at).toISOString(),
            sender_address: r.sender_address,
            recipient_address: r.recipient_address,
            txid: r.txid,
            note: r.note,
            is_hidden: r.is_hidden,
            request_id: r.request_id,
          })),
        };
      },
    );
  };
}

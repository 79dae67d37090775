import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthServices } from '../auth/index.js';
import { authOf } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { TransactionStatus, TransactionType } from '../../ledger/wallet/events.js';
import { assertCanManageUser, customerInReach } from './access.js';
import { T_COLUMNS, type TransactionRow } from '../marketplace/swap-merge.js';

/** Spec 002: "Editable type values: deposit, withdrawal, adjustment, swap, or unselected" (left out). */
const EditableTransactionType = TransactionType.exclude(['send']);

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
            type: EditableTransactionType.optional(),
            note: z.string().max(1000).nullable().optional(),
          }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        const { targetUserId, transactionId, status, type, note } = request.body;
        // A customer's transaction only: an admin reaches staff accounts too, their own included.
        await customerInReach(auth.accounts, staff, targetUserId);
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
        const { rows } = await sql<TransactionRow>`
          select ${T_COLUMNS} from transactions t where t.user_id = ${request.params.userId}::uuid
          order by t.sent_at desc, t.created_at desc, t.id limit ${sql.lit(STAFF_HISTORY_LIMIT)}`.execute(db);
        return { transactions: rows };
      },
    );
  };
}

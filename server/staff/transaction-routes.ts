import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StaffTransactionPage, TransactionUpdated } from '../../ledger/contract/staff-users.js';
import type { AuthServices } from '../auth/index.js';
import { authOf } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { TransactionStatus, TransactionType } from '../../ledger/wallet/events.js';
import { assertCanManageUser, customerInReach } from '../shared/access.js';
import { T_COLUMNS, type TransactionRow } from '../transactions/list.js';
import { AWAITING_SECOND_APPROVAL, type FourEyes } from './four-eyes.js';
import type { Valuation } from '../../ledger/wallet/approvals.js';
import { isAssetId } from '../../ledger/assets.js';
import { money } from '../../ledger/money.js';

/** Spec 002: "Editable type values: deposit, withdrawal, adjustment, swap, or unselected" (left out). */
const EditableTransactionType = TransactionType.exclude(['send']);

/**
 * The staff's Edit Transaction (spec 002: status, type and note). A status change settles
 * or fails the money exactly as the ledger defines; only Pending transactions move.
 */
export function staffTransactionRoutes(auth: AuthServices, ledger: LedgerContext, fourEyes: FourEyes): FastifyPluginAsyncZod {
  const db = ledger.database.db;
  return async (app) => {
    app.post(
      '/update-transaction',
      {
        schema: {
          tags: ['functions'],
          response: { 200: TransactionUpdated, 202: TransactionUpdated },
          body: z.object({
            targetUserId: z.uuid(),
            transactionId: z.uuid(),
            status: TransactionStatus.optional(),
            type: EditableTransactionType.optional(),
            note: z.string().max(1000).nullable().optional(),
          }),
        },
      },
      async (request, reply) => {
        const staff = authOf(request);
        const { targetUserId, transactionId, status, type, note } = request.body;
        // A customer's transaction only: an admin reaches staff accounts too, their own included.
        await customerInReach(auth.accounts, staff, targetUserId);
        const row = await db
          .selectFrom('transactions')
          .select(['id', 'status', 'is_hidden', 'type', 'asset_id', 'amount'])
          .where('id', '=', transactionId)
          .where('user_id', '=', targetUserId)
          .executeTakeFirst();
        if (!row) throw notFound('Transaction not found.');
        if (row.is_hidden) throw conflict("This transaction is hidden from the user's view and cannot be edited.");
        const ctx = { actor: { id: staff.userId, role: staff.role }, extra: { reason: 'staff edit' } };
        const statusChange = Boolean(status && status !== row.status);
        // Refuse a status move before recording anything, so a refused save changes nothing.
        if (statusChange && (status === 'Pending' || row.status !== 'Pending')) {
          throw conflict(`A ${row.status} transaction cannot change status; record a correcting transaction instead.`);
        }
        if (type !== undefined || note !== undefined) {
          await ledger.execute(
            walletDecider,
            targetUserId,
            { type: 'EditTransaction', transactionId, txType: type, note: note === undefined ? undefined : note?.trim() || null },
            ctx,
          );
        }
        // Four eyes: completing a deposit, a manual credit, a withdrawal or a send above the limit
        // waits for a second person (a swap's legs convert and are not under the rule).
        let valuation: Valuation | undefined;
        if (statusChange && status === 'Complete' && row.type !== 'swap' && isAssetId(row.asset_id)) {
          const { waiting, valuation: valued } = await fourEyes.requestIfNeeded(
            staff,
            {
              customerId: targetUserId,
              action: 'settle-transaction',
              transactionId,
              assetId: row.asset_id,
              amount: money(row.amount),
              transaction: null,
            },
            { ip: request.ip ?? null },
          );
          if (waiting) {
            const unchanged = await db
              .selectFrom('transactions')
              .select(['id', 'status', 'type', 'note'])
              .where('id', '=', transactionId)
              .executeTakeFirstOrThrow();
            reply.status(202);
            return { success: true, message: AWAITING_SECOND_APPROVAL, awaitingApproval: true, approval: waiting, transaction: unchanged };
          }
          valuation = valued;
        }
        if (statusChange) {
          await ledger.execute(
            walletDecider,
            targetUserId,
            status === 'Complete'
              ? { type: 'SettleTransaction', transactionId, valuation }
              : { type: 'FailTransaction', transactionId, reason: null },
            ctx,
          );
        }
        const updated = await db
          .selectFrom('transactions')
          .select(['id', 'status', 'type', 'note'])
          .where('id', '=', transactionId)
          .executeTakeFirstOrThrow();
        return { success: true, transaction: updated };
      },
    );
  };
}

/** Rows per page of the staff history (a page never ends between the two legs of a swap). */
export const STAFF_HISTORY_PAGE = 500;

/**
 * The staff's Transactions tab (spec 002: every row of the user, hidden ones included,
 * newest first), a page at a time: `before` is the id of the last row already shown, and
 * `next` the id to ask with for the rows after this page (null at the end). Swap legs carry
 * their request id; the screen pairs them.
 */
export function staffTransactionListRoutes(auth: AuthServices, ledger: LedgerContext): FastifyPluginAsyncZod {
  const db = ledger.database.db;
  return async (app) => {
    app.get(
      '/users/:userId/transactions',
      {
        schema: {
          tags: ['api'],
          response: { 200: StaffTransactionPage },
          params: z.object({ userId: z.uuid() }),
          querystring: z.object({ before: z.uuid().optional() }),
        },
      },
      async (request) => {
        const staff = authOf(request);
        const { userId } = request.params;
        await assertCanManageUser(db, staff, userId);
        const before = request.query.before;
        // The list's order is (sent_at desc, created_at desc, id): the rows after the cursor's row.
        const after = before
          ? sql`and (t.sent_at, t.created_at) <= (c.sent_at, c.created_at)
              and ((t.sent_at, t.created_at) < (c.sent_at, c.created_at) or t.id > c.id)`
          : sql``;
        const cursor = before
          ? sql`, (select sent_at, created_at, id from transactions where id = ${before}::uuid and user_id = ${userId}::uuid) c`
          : sql``;
        if (before) {
          const known = await db
            .selectFrom('transactions')
            .select('id')
            .where('id', '=', before)
            .where('user_id', '=', userId)
            .executeTakeFirst();
          if (!known) throw badRequest('Unknown transaction to continue the history from.');
        }
        const { rows } = await sql<TransactionRow>`
          select ${T_COLUMNS} from transactions t ${cursor} where t.user_id = ${userId}::uuid ${after}
          order by t.sent_at desc, t.created_at desc, t.id limit ${sql.lit(STAFF_HISTORY_PAGE + 2)}`.execute(db);
        // A swap's legs sit side by side in this order: keep them on one page.
        let size = Math.min(rows.length, STAFF_HISTORY_PAGE);
        if (rows.length > size && rows[size - 1]!.request_id && rows[size]!.request_id === rows[size - 1]!.request_id) size++;
        const page = rows.slice(0, size);
        return { transactions: page, next: rows.length > size ? page[page.length - 1]!.id : null };
      },
    );
  };
}

import { newId } from '../../../ledger/ids.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AddressSet, AddTransactionBody, SetWalletAddressBody, TransactionAdded } from '../../../ledger/contract/staff-users.js';
import { authOf, type AuthInfo } from '../../auth/guard.js';
import { badRequest } from '../../errors.js';
import { TransactionStatus } from '../../../ledger/wallet/events.js';
import { isAssetId } from '../../../ledger/assets.js';
import { ADDRESS_SHAPES, isValidAddress } from '../../../ledger/addresses.js';
import { requestAmount } from '../../shared/amounts.js';
import { customerInReach } from '../../shared/access.js';
import { AWAITING_SECOND_APPROVAL } from '../../staff/four-eyes.js';
import { readClosedThrough } from '../../../ledger/books/periods.js';
import { actorOf, PROFILE_MESSAGES } from './shared.js';

export const autoPrefix = '/functions/v1';

/** How far ahead of the server's clock a manual transaction's sentAt may be: a day, for time zones. */
const SENT_AT_AHEAD_MS = 86_400_000;

/**
 * The staff's actions on the Wallets tab of a user profile (spec 002 section 7): a wallet's
 * deposit address, and manual transactions (above the four-eyes limit they wait for a second
 * staff member). Every call passes the one access rule first and is recorded with the staff member as actor.
 */
const profileWalletRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger, fourEyes } = app;
  const { accounts } = app.authServices;
  const reachableUser = (staff: AuthInfo, userId: string) => customerInReach(accounts, staff, userId);

  app.post(
    '/set-user-wallet-address',
    {
      schema: {
        tags: ['functions'],
        response: { 200: AddressSet },
        body: SetWalletAddressBody,
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
        body: AddTransactionBody,
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
      const transactionId = newId();
      const assetId = b.assetId;
      const closedThrough = await readClosedThrough(ledger.store);
      // The wallet decider applies the two-person rule: a Complete transaction it judges too large
      // (alone, or with the day's others) waits for a second person and moves nothing yet.
      const { waiting } = await fourEyes.run(
        staff,
        b.targetUserId,
        assetId,
        (act) => ({
          type: 'RecordTransaction',
          transactionId,
          assetId,
          sentAt: sentAt.toISOString(),
          amount,
          status: status.data,
          txType: 'deposit',
          note,
          senderAddress,
          txid: b.txid?.trim() || null,
          isHidden: b.isHidden ?? false,
          reason: note,
          staff: act,
          closedThrough,
        }),
        { reason: 'staff manual transaction', ip: request.ip ?? null },
      );
      if (waiting) {
        reply.status(202);
        return { message: AWAITING_SECOND_APPROVAL, transactionId, awaitingApproval: true, approval: waiting };
      }
      return { message: 'Transaction added successfully!', transactionId };
    },
  );
};

export default profileWalletRoutes;

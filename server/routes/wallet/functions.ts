import { newId } from '../../../ledger/ids.js';
import { type Kysely } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { authOf, type AuthInfo } from '../../auth/guard.js';
import type { DB } from '../../db/schema.js';
import { WatchedCache } from '../../db/write-watch.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import type { WalletCommand } from '../../../ledger/wallet/wallet.js';
import { isValidAddress, ADDRESS_SHAPES } from '../../../ledger/addresses.js';
import { assertCanManageUser } from '../../shared/access.js';
import { customerProfile } from '../../shared/customer-profile.js';
import { requestAmount, requestAsset } from '../../shared/amounts.js';
import { idempotencyKey } from '../../shared/requests.js';
import { isUuid } from '../../ids.js';
import { TargetUserBody } from '../../../ledger/contract/common.js';
import { FiatRequestAnswer, FiatRequestBody, ProfileDetails, SendAnswer, SendRequestBody } from '../../../ledger/contract/payments.js';
import { fiatChecks, profileDetails, type FiatChecks } from './queries.js';

export const autoPrefix = '/functions/v1';

/** How long a deposit or withdrawal request may reuse what it read of permissions and payment methods (see `fiatChecksCache`). */
const FIAT_CHECKS_MAX_AGE_MS = 1000;

/** A customer acts only for themself; staff reach a user through the access rule. */
async function assertCanRead(db: Kysely<DB>, caller: AuthInfo, targetUserId: string): Promise<void> {
  if (caller.userId === targetUserId) return;
  if (caller.role === 'USER') throw forbidden('You can only view your own account.');
  await assertCanManageUser(db, caller, targetUserId);
}

/**
 * The customer's money calls (spec 001: Overview, Wallets, Payments): profile details, deposit
 * and withdrawal requests, and a send to an address. The customer's transaction list is
 * server/routes/transactions/api.ts.
 */
const walletFunctions: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;

  /** `asked`: the checked fields of the request; the same Idempotency-Key with another request is refused (422). */
  const execute = (request: FastifyRequest, caller: AuthInfo, command: WalletCommand, asked: Record<string, unknown>) =>
    ledger.execute(walletDecider, caller.userId, command, {
      actor: { id: caller.userId, role: caller.role },
      idempotencyKey: idempotencyKey(request),
      idempotencyPayload: asked,
      extra: { ip: request.ip ?? null },
    });

  /**
   * The fiat checks (./queries.ts), answered from memory until this process writes a profile or a
   * payment method (a staff change of permissions or a removed card counts from the next request
   * on), and for at most FIAT_CHECKS_MAX_AGE_MS, for another process's writes.
   */
  const fiatChecksCache = new WatchedCache<FiatChecks>(ledger.database.watch, { maxAgeMs: FIAT_CHECKS_MAX_AGE_MS, maxSize: 10_000 });
  const checksOf = (userId: string, paymentMethodId: string | null) =>
    fiatChecksCache.get(`${userId}/${paymentMethodId ?? ''}`, () => fiatChecks(db, userId, paymentMethodId));

  app.post(
    '/get-user-profile-details',
    { schema: { tags: ['functions'], response: { 200: ProfileDetails }, body: TargetUserBody } },
    async (request) => {
      const caller = authOf(request);
      await assertCanRead(db, caller, request.body.targetUserId);
      const details = await profileDetails(db, request.body.targetUserId);
      if (!details) throw notFound('User not found.');
      return details;
    },
  );

  for (const kind of ['deposit', 'withdrawal'] as const) {
    app.post(
      kind === 'deposit' ? '/create-deposit-request' : '/create-withdrawal-request',
      { schema: { tags: ['functions'], response: { 200: FiatRequestAnswer }, body: FiatRequestBody } },
      async (request) => {
        const caller = authOf(request);
        const body = request.body;
        if (body.userId !== caller.userId) throw forbidden('You can only make requests for your own account.');
        // Card deposits and bank withdrawals are a customer's; staff accounts have no customer money.
        if (caller.role !== 'USER') throw forbidden('Only customers make deposit and withdrawal requests.');
        const assetId = requestAsset(body.tokenId);
        const amount = requestAmount(body.amount);
        if (!body.paymentMethodId) throw badRequest('Please select a payment method');
        const checks = await checksOf(caller.userId, isUuid(body.paymentMethodId) ? body.paymentMethodId : null);
        // No profile row yet means the defaults: everything allowed.
        if (kind === 'deposit' && checks.can_buy === false)
          throw forbidden(checks.buy_disabled_note || 'You do not have permission to make deposits.');
        if (kind === 'withdrawal' && checks.can_sell === false)
          throw forbidden(checks.sell_disabled_note || 'You do not have permission to make withdrawals.');
        if (!checks.method_type) throw badRequest('Please select a payment method');
        if (kind === 'deposit' && checks.method_type !== 'credit_card') throw badRequest('Deposits can only be made with a credit card.');
        const transactionId = newId();
        const command: WalletCommand =
          kind === 'deposit'
            ? {
                type: 'RequestDeposit',
                transactionId,
                assetId,
                amount,
                paymentMethodId: body.paymentMethodId,
                sentAt: new Date().toISOString(),
              }
            : {
                type: 'RequestWithdrawal',
                transactionId,
                assetId,
                amount,
                paymentMethodId: body.paymentMethodId,
                sentAt: new Date().toISOString(),
              };
        const result = await execute(request, caller, command, { assetId, amount, paymentMethodId: body.paymentMethodId });
        const opened = result.events[0]!.data as { transactionId: string; amount: string; fee: string };
        return { success: true, transactionId: opened.transactionId, amount: opened.amount, fee: opened.fee };
      },
    );
  }

  app.post(
    '/create-pending-withdrawal',
    {
      schema: {
        tags: ['functions'],
        response: { 200: SendAnswer },
        body: SendRequestBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const assetId = requestAsset(request.body.assetId, 'Wallet information or user context is missing.');
      const amount = requestAmount(request.body.amount, 'Please enter a valid positive amount.');
      const address = request.body.recipientAddress.trim();
      if (!address) throw badRequest('Please enter a recipient address.');
      if (!isValidAddress(assetId, address))
        throw badRequest(`This is not a valid ${ADDRESS_SHAPES[assetId].network} address for ${assetId}.`);
      const profile = await customerProfile(db, caller.userId);
      if (profile && !profile.can_send) throw forbidden(profile.send_disabled_note || 'Sending is currently disabled for your account.');
      const result = await execute(
        request,
        caller,
        {
          type: 'RequestSend',
          transactionId: newId(),
          assetId,
          amount,
          recipientAddress: address,
          sentAt: new Date().toISOString(),
        },
        { assetId, amount, recipientAddress: address },
      );
      return { success: true, transactionId: (result.events[0]!.data as { transactionId: string }).transactionId };
    },
  );
};

export default walletFunctions;

import { newId } from '../../../ledger/ids.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SwapAnswer, SwapRequestBody } from '../../../ledger/contract/swap.js';
import { authOf } from '../../auth/guard.js';
import { usdPrice } from '../../prices/usd-price.js';
import { badRequest, forbidden } from '../../errors.js';
import { requestAmount, requestAsset } from '../../shared/amounts.js';
import { customerProfile } from '../../shared/customer-profile.js';
import { idempotencyKey } from '../../shared/requests.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import type { WalletEventData } from '../../../ledger/wallet/events.js';
import { SWAP_MESSAGES } from '../../../ledger/wallet/wallet.js';
import type { AssetId } from '../../../ledger/assets.js';

export const autoPrefix = '/functions/v1';

export const SWAP_DISABLED = 'Swapping is currently disabled for your account.';

/** Swap (spec 001: Swap Tokens): quoted from the app's price cache, both legs appended at once. */
const swapFunctions: FastifyPluginAsyncZod = async (app) => {
  const { ledger, prices } = app;
  const db = ledger.database.db;

  const priceOf = (asset: AssetId) => usdPrice(prices, asset);

  app.post(
    '/create-swap-request',
    {
      schema: {
        tags: ['functions'],
        response: { 200: SwapAnswer },
        body: SwapRequestBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const fromAssetId = requestAsset(request.body.fromTokenId);
      const toAssetId = requestAsset(request.body.toTokenId);
      if (fromAssetId === toAssetId) throw badRequest(SWAP_MESSAGES.sameToken);
      const fromAmount = requestAmount(request.body.fromAmount, SWAP_MESSAGES.invalidAmount);
      const profile = await customerProfile(db, caller.userId);
      if (profile && profile.can_swap === false) throw forbidden(profile.swap_disabled_note || SWAP_DISABLED);
      const requestId = newId();
      const result = await ledger.execute(
        walletDecider,
        caller.userId,
        {
          type: 'RequestSwap',
          requestId,
          fromTransactionId: newId(),
          toTransactionId: newId(),
          fromAssetId,
          toAssetId,
          fromAmount,
          fromPrice: priceOf(fromAssetId),
          toPrice: priceOf(toAssetId),
          sentAt: new Date().toISOString(),
        },
        {
          actor: { id: caller.userId, role: caller.role },
          // The same key with another swap (or another command) is refused; prices may move between retries.
          idempotencyKey: idempotencyKey(request),
          idempotencyPayload: { fromAssetId, toAssetId, fromAmount },
          extra: { ip: request.ip ?? null },
        },
      );
      const [from, to] = result.events.map((e) => e.data as WalletEventData<'wallet.swap-requested'>);
      return {
        success: true,
        requestId: from!.requestId,
        fromTransactionId: from!.transactionId,
        toTransactionId: to!.transactionId,
        fromAmount: from!.fromAmount,
        fee: from!.fee,
        feeUsd: from!.feeUsd,
        netReceived: from!.netReceived,
        rate: from!.rate,
      };
    },
  );
};

export default swapFunctions;

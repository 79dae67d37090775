import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SwapAnswer } from '../../ledger/contract/swap.js';
import { ScheduledTransactions, StakeAnswer } from '../../ledger/contract/staking.js';
import type { FastifyRequest } from 'fastify';
import type { AuthServices } from '../auth/index.js';
import { authOf } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import type { PriceCache } from '../prices/price-cache.js';
import { usdPrice } from '../prices/usd-price.js';
import { badRequest, forbidden } from '../errors.js';
import { requestAmount, requestAsset } from '../shared/amounts.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import type { WalletEventData } from '../../ledger/wallet/events.js';
import { SWAP_MESSAGES } from '../../ledger/wallet/wallet.js';
import { formatAmount, money } from '../../ledger/money.js';
import type { AssetId } from '../../ledger/assets.js';
import { STAKE_MESSAGES } from '../../ledger/staking/plans.js';

const amountInput = z.union([z.string().max(64), z.number()]);
const idempotencyKey = (request: FastifyRequest) => {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : undefined;
};

export const SWAP_DISABLED = 'Swapping is currently disabled for your account.';
export { PRICES_UNAVAILABLE } from '../prices/usd-price.js';

/** Swap and stake (spec 001: Swap Tokens, Stake Plans, Manage Stakes). */
export function marketplaceRoutes(
  auth: AuthServices,
  ledger: LedgerContext,
  prices: PriceCache,
): { functions: FastifyPluginAsyncZod; api: FastifyPluginAsyncZod } {
  const db = ledger.database.db;

  const profileOf = (userId: string) => db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();

  const priceOf = (asset: AssetId) => usdPrice(prices, asset);

  const functions: FastifyPluginAsyncZod = async (app) => {
    app.post(
      '/create-swap-request',
      {
        schema: {
          tags: ['functions'],
          response: { 200: SwapAnswer },
          body: z.object({ fromTokenId: z.string().max(10), toTokenId: z.string().max(10), fromAmount: amountInput }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        const fromAssetId = requestAsset(request.body.fromTokenId);
        const toAssetId = requestAsset(request.body.toTokenId);
        if (fromAssetId === toAssetId) throw badRequest(SWAP_MESSAGES.sameToken);
        const fromAmount = requestAmount(request.body.fromAmount, SWAP_MESSAGES.invalidAmount);
        const profile = await profileOf(caller.userId);
        if (profile && profile.can_swap === false) throw forbidden(profile.swap_disabled_note || SWAP_DISABLED);
        const requestId = randomUUID();
        const result = await ledger.execute(
          walletDecider,
          caller.userId,
          {
            type: 'RequestSwap',
            requestId,
            fromTransactionId: randomUUID(),
            toTransactionId: randomUUID(),
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

    app.post(
      '/create-stake-transaction',
      {
        schema: {
          tags: ['functions'],
          response: { 200: StakeAnswer },
          body: z.object({
            assetId: z.string().max(10),
            amount: amountInput,
            durationDays: z.coerce.number().int().min(1).max(10_000),
            rate: z.union([z.string().max(32), z.number()]),
          }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        const body = request.body;
        const assetId = requestAsset(body.assetId, STAKE_MESSAGES.missing);
        const amount = requestAmount(body.amount, STAKE_MESSAGES.invalidAmount);
        const rate = requestAmount(typeof body.rate === 'number' ? String(body.rate) : body.rate, STAKE_MESSAGES.missing);
        const profile = await profileOf(caller.userId);
        if (profile && profile.can_stake === false) throw forbidden(profile.stake_disabled_note || STAKE_MESSAGES.notAllowed);
        const stakeId = randomUUID();
        const result = await ledger.execute(
          walletDecider,
          caller.userId,
          { type: 'OpenStake', stakeId, assetId, amount, durationDays: body.durationDays, rate, sentAt: new Date().toISOString() },
          {
            actor: { id: caller.userId, role: caller.role },
            idempotencyKey: idempotencyKey(request),
            idempotencyPayload: { assetId, amount, durationDays: body.durationDays, rate },
            extra: { ip: request.ip ?? null },
          },
        );
        const opened = result.events[0]!.data as WalletEventData<'wallet.stake-opened'>;
        return {
          success: true,
          message: `Successfully staked ${opened.principal} ${opened.assetId} for ${opened.durationDays} days.`,
          stakeId: opened.stakeId,
          scheduledAt: opened.maturesAt,
          estimatedEarnings: opened.estimatedEarnings,
        };
      },
    );
  };

  const api: FastifyPluginAsyncZod = async (app) => {
    // The spec's select: the user's rows, status pending, type stake_payout, by scheduled_at ascending.
    app.get(
      '/scheduled-transactions',
      {
        schema: {
          tags: ['api'],
          response: { 200: ScheduledTransactions },
          querystring: z.object({
            status: z.enum(['pending', 'completed']).default('pending'),
            type: z.enum(['stake_payout']).default('stake_payout'),
          }),
        },
      },
      async (request) => {
        const caller = authOf(request);
        const rows = await db
          .selectFrom('scheduled_transactions')
          .selectAll()
          .where('user_id', '=', caller.userId)
          .where('status', '=', request.query.status)
          .where('type', '=', request.query.type)
          .orderBy('scheduled_at', 'asc')
          .orderBy('id')
          .execute();
        return {
          scheduledTransactions: rows.map((r) => ({
            id: r.id,
            user_id: r.user_id,
            asset_id: r.asset_id,
            amount: formatAmount(money(r.amount)),
            duration_days: r.duration_days,
            rate: formatAmount(money(r.rate)),
            estimated_earnings: formatAmount(money(r.estimated_earnings)),
            scheduled_at: new Date(r.scheduled_at).toISOString(),
            status: r.status,
            type: r.type,
            created_at: new Date(r.created_at).toISOString(),
            completed_at: r.completed_at ? new Date(r.completed_at).toISOString() : null,
            payout_transaction_id: r.payout_transaction_id,
          })),
        };
      },
    );
  };

  return { functions, api };
}

import { newId } from '../../../ledger/ids.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StakeAnswer, StakeRequestBody } from '../../../ledger/contract/staking.js';
import { authOf } from '../../auth/guard.js';
import { forbidden } from '../../errors.js';
import { requestAmount, requestAsset } from '../../shared/amounts.js';
import { customerProfile } from '../../shared/customer-profile.js';
import { idempotencyKey } from '../../shared/requests.js';
import { walletDecider } from '../../../ledger/wallet/decider.js';
import type { WalletEventData } from '../../../ledger/wallet/events.js';
import { STAKE_MESSAGES } from '../../../ledger/staking/plans.js';

export const autoPrefix = '/functions/v1';

/**
 * Stake (spec 001: Stake Plans): locks the amount and schedules its payout, which
 * server/marketplace/payout-scheduler.ts pays at maturity.
 */
const stakingFunctions: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;

  app.post(
    '/create-stake-transaction',
    {
      schema: {
        tags: ['functions'],
        response: { 200: StakeAnswer },
        body: StakeRequestBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const body = request.body;
      const assetId = requestAsset(body.assetId, STAKE_MESSAGES.missing);
      const amount = requestAmount(body.amount, STAKE_MESSAGES.invalidAmount);
      const rate = requestAmount(typeof body.rate === 'number' ? String(body.rate) : body.rate, STAKE_MESSAGES.missing);
      const profile = await customerProfile(db, caller.userId);
      if (profile && profile.can_stake === false) throw forbidden(profile.stake_disabled_note || STAKE_MESSAGES.notAllowed);
      const stakeId = newId();
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

export default stakingFunctions;

import { Decimal } from 'decimal.js';
import { formatAmount, money, ZERO } from '../money.js';
import { type WalletEvent } from './events.js';
import { checkStakeAmount, estimatedEarnings, findStakePlan, STAKE_MESSAGES } from '../staking/plans.js';
import { quoteSwap, swapNote } from '../swap/quote.js';
import { type WalletState, availableBalance } from './state.js';
import { type WalletCommand, SWAP_MESSAGES, DAY_MS, WalletError } from './commands.js';
import { requireNew, none } from './rules.js';

/** The marketplace's decisions on a wallet: a swap's two legs and a stake. */
export function decideSwap(command: Extract<WalletCommand, { type: 'RequestSwap' }>, state: WalletState): WalletEvent[] {
  if (command.fromAssetId === command.toAssetId) throw new WalletError('invalid_amount', SWAP_MESSAGES.sameToken);
  if (!command.fromAmount.isFinite() || command.fromAmount.lte(0) || command.fromAmount.decimalPlaces() > 18) {
    throw new WalletError('invalid_amount', SWAP_MESSAGES.invalidAmount);
  }
  requireNew(state, command.fromTransactionId);
  requireNew(state, command.toTransactionId);
  // Available for a swap = max(0, balance + pending withdrawals).
  const available = Decimal.max(ZERO, availableBalance(state, command.fromAssetId));
  if (command.fromAmount.gt(available)) throw new WalletError('insufficient_balance', SWAP_MESSAGES.insufficient);
  const quote = quoteSwap(command.fromAmount, command.fromPrice, command.toPrice);
  if (money(quote.netReceived).lte(0)) throw new WalletError('invalid_amount', SWAP_MESSAGES.invalidAmount);
  const shared = {
    ...none,
    sentAt: command.sentAt,
    note: swapNote(command.fromAssetId, command.toAssetId, command.requestId),
    requestId: command.requestId,
    paymentMethodId: null,
    fromAssetId: command.fromAssetId,
    toAssetId: command.toAssetId,
    fromAmount: quote.fromAmount,
    netReceived: quote.netReceived,
    fromPrice: quote.fromPrice,
    toPrice: quote.toPrice,
    rate: quote.rate,
    feeUsd: quote.feeUsd,
  };
  return [
    {
      type: 'wallet.swap-requested',
      data: {
        ...shared,
        transactionId: command.fromTransactionId,
        assetId: command.fromAssetId,
        amount: formatAmount(command.fromAmount.negated()),
        fee: quote.fee,
        leg: 'from',
        linkedTransactionId: command.toTransactionId,
      },
    },
    {
      type: 'wallet.swap-requested',
      data: {
        ...shared,
        transactionId: command.toTransactionId,
        assetId: command.toAssetId,
        amount: quote.netReceived,
        fee: '0',
        leg: 'to',
        linkedTransactionId: command.fromTransactionId,
      },
    },
  ];
}

export function decideStake(command: Extract<WalletCommand, { type: 'OpenStake' }>, state: WalletState): WalletEvent[] {
  const plan = findStakePlan(command.assetId, command.durationDays);
  if (!plan) throw new WalletError('invalid_amount', STAKE_MESSAGES.missing);
  // The rate comes from the catalogue; a client that sent another one is refused, not corrected.
  if (!command.rate.isFinite() || !command.rate.eq(plan.rate)) throw new WalletError('invalid_amount', STAKE_MESSAGES.missing);
  if (command.amount.isFinite() && command.amount.decimalPlaces() > 18)
    throw new WalletError('invalid_amount', 'Amounts can have at most 18 decimal places.');
  requireNew(state, command.stakeId);
  const available = Decimal.max(ZERO, availableBalance(state, command.assetId));
  const check = checkStakeAmount(plan, command.assetId, command.amount, available);
  if (!check.ok) {
    const code = check.message.startsWith('Insufficient') ? 'insufficient_balance' : 'invalid_amount';
    throw new WalletError(code, check.message);
  }
  const maturesAt = new Date(Date.parse(command.sentAt) + command.durationDays * DAY_MS).toISOString();
  return [
    {
      type: 'wallet.stake-opened',
      data: {
        ...none,
        transactionId: command.stakeId,
        assetId: command.assetId,
        amount: formatAmount(command.amount.negated()),
        fee: '0',
        sentAt: command.sentAt,
        note: `Stake: ${plan.days} days at ${plan.rate}% APY`,
        paymentMethodId: null,
        stakeId: command.stakeId,
        principal: formatAmount(command.amount),
        durationDays: plan.days,
        rate: plan.rate,
        maturesAt,
        estimatedEarnings: estimatedEarnings(command.amount, plan.rate, plan.days),
      },
    },
  ];
}

import { z } from 'zod';
import { AmountInput, Decimal } from './common.js';

/* Swap (spec 001 section 7): the quote's fee and rounding, the messages and the request's answer. */

export { SWAP_FEE_RATE, quoteSwap, type SwapQuote } from '../swap/quote.js';
export { SWAP_MESSAGES } from '../wallet/wallet.js';

/** create-swap-request: what to swap into what; the server quotes from its own prices. */
export const SwapRequestBody = z.object({ fromTokenId: z.string().max(10), toTokenId: z.string().max(10), fromAmount: AmountInput });

/** A swap request: its two legs, what was spent, the fee (in the asset and in USD), what arrives and the rate. */
export const SwapAnswer = z.object({
  success: z.boolean(),
  requestId: z.string(),
  fromTransactionId: z.string(),
  toTransactionId: z.string(),
  fromAmount: Decimal,
  fee: Decimal,
  feeUsd: Decimal,
  netReceived: Decimal,
  rate: Decimal,
});

import type { z } from 'zod';
import type { SwapAnswer as SwapAnswerSchema, SwapRequestBody } from '@ledger/contract/swap.js';
import { postJson } from '@/lib/api-client.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';

export type SwapAnswer = z.infer<typeof SwapAnswerSchema>;

/** POST create-swap-request: the server quotes from its own prices; the client sends only what to swap. */
export function createSwapRequest(body: z.input<typeof SwapRequestBody>): Promise<SwapAnswer> {
  return postJson<SwapAnswer>('functions/v1/create-swap-request', body, idempotent());
}

export const SWAP_TEXT = {
  insufficientInline: 'Insufficient balance',
  insufficientButton: 'Insufficient Balance',
  enterAmount: 'Enter an amount',
  invalidSubmit: 'Please ensure you have entered a valid amount and have sufficient balance.',
  disabled: 'Swapping is currently disabled for your account.',
  failed: 'Failed to initiate swap request.',
  failedWith: (reason: string) => `Swap failed: ${reason}`,
  success: 'Your swap request has been submitted and is being processed. You can check its status in your transaction history.',
} as const;

/**
 * The swap button's text: 'Insufficient Balance' only when the amount is more than the
 * customer has; an empty or zero amount (as after a swap is submitted) asks for one.
 */
export function swapButtonLabel(state: { permitted: boolean; amountPositive: boolean; exceeds: boolean }): string {
  if (!state.permitted) return 'Not Permitted';
  if (state.exceeds) return SWAP_TEXT.insufficientButton;
  return state.amountPositive ? 'Swap' : SWAP_TEXT.enterAmount;
}

/** A token picker's option: the ticker and the name without the ticker repeated ('USDT · Tether', 'BNB'). */
export function pickerLabel(id: string, name: string): string {
  const rest = name.replace(new RegExp(`\\b${id}\\b`), '').trim();
  return rest ? `${id} · ${rest}` : id;
}

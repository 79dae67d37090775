import { postJson } from '../../../../lib/api-client.js';
import { idempotent } from '../../shared/api/idempotency.js';

export type SwapAnswer = { success: boolean; requestId: string; fromAmount: string; fee: string; netReceived: string; rate: string };

/** POST create-swap-request: the server quotes from its own prices; the client sends only what to swap. */
export function createSwapRequest(body: { fromTokenId: string; toTokenId: string; fromAmount: string }): Promise<SwapAnswer> {
  return postJson<SwapAnswer>('functions/v1/create-swap-request', body, idempotent());
}

export const SWAP_TEXT = {
  insufficientInline: 'Insufficient balance',
  insufficientButton: 'Insufficient Balance',
  invalidSubmit: 'Please ensure you have entered a valid amount and have sufficient balance.',
  disabled: 'Swapping is currently disabled for your account.',
  failed: 'Failed to initiate swap request.',
  failedWith: (reason: string) => `Swap failed: ${reason}`,
  success: 'Your swap request has been submitted and is being processed. You can check its status in your transaction history.',
} as const;

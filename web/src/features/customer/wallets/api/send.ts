import { postJson } from '@/lib/api-client.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';

/** create-pending-withdrawal: a send that waits for approval (docs/api-money.md). */
export function requestSend(body: {
  assetId: string;
  amount: string;
  recipientAddress: string;
}): Promise<{ success: boolean; transactionId: string }> {
  return postJson('functions/v1/create-pending-withdrawal', body, idempotent());
}

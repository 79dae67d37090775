import type { z } from 'zod';
import type { SendAnswer, SendRequestBody } from '@ledger/contract/payments.js';
import { postJson } from '@/lib/api-client.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';

/** create-pending-withdrawal: a send that waits for approval (docs/api-money.md). */
export function requestSend(body: z.input<typeof SendRequestBody>): Promise<z.infer<typeof SendAnswer>> {
  return postJson('functions/v1/create-pending-withdrawal', body, idempotent());
}

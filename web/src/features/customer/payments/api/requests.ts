import type { z } from 'zod';
import type { FiatRequestAnswer, FiatRequestBody } from '@ledger/contract/payments.js';
import { postJson } from '@/lib/api-client.js';
import { idempotent } from '@/features/customer/shared/api/idempotency.js';

export type PaymentKind = 'withdrawal' | 'deposit';

export type PaymentRequest = z.input<typeof FiatRequestBody>;
export type PaymentAnswer = z.infer<typeof FiatRequestAnswer>;

/** create-deposit-request / create-withdrawal-request (docs/api-money.md). */
export function requestPayment(kind: PaymentKind, body: PaymentRequest): Promise<PaymentAnswer> {
  const path = kind === 'deposit' ? 'functions/v1/create-deposit-request' : 'functions/v1/create-withdrawal-request';
  return postJson(path, body, idempotent());
}

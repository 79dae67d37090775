import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { z } from 'zod';
import { deleteJson, getJson, postJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';
import type { Done } from '@ledger/contract/common.js';
import {
  PaymentMethodList,
  type AddPaymentMethodBody,
  type PaymentMethodAnswer,
  type PaymentMethodView,
} from '@ledger/contract/payment-methods.js';
import { customerKeys } from './keys.js';
import { idempotent } from './idempotency.js';

/** A saved payment method (docs/api-money.md): only what may be shown, never the full numbers. */
export type PaymentMethod = PaymentMethodView;

export const LOAD_METHODS_ERROR = 'Failed to load payment methods.';

/** What the add form sends (the payment-methods contract): a card or a bank account, its fields as typed. */
export type NewPaymentMethod = z.input<typeof AddPaymentMethodBody>;
export type NewCard = Extract<NewPaymentMethod, { type: 'credit_card' }>;
export type NewBankAccount = Extract<NewPaymentMethod, { type: 'bank_account' }>;

/** GET /api/v1/payment-methods: `{paymentMethods}`, own, newest first. */
export async function fetchPaymentMethods(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const answer = await getJson('api/v1/payment-methods', { signal });
  return parseAnswer(PaymentMethodList, answer, LOAD_METHODS_ERROR).paymentMethods;
}

export type PaymentMethodsState = { methods: PaymentMethod[]; loading: boolean; error: string | null; reload: () => void };

/** The customer's saved payment methods, newest first. */
export function usePaymentMethods(): PaymentMethodsState {
  const client = useQueryClient();
  const query = useQuery({ queryKey: customerKeys.paymentMethods, queryFn: ({ signal }) => fetchPaymentMethods(signal) });
  const reload = useCallback(() => void client.invalidateQueries({ queryKey: customerKeys.paymentMethods }), [client]);
  return {
    methods: query.data ?? [],
    loading: query.isFetching || query.isPending,
    error: query.error ? LOAD_METHODS_ERROR : null,
    reload,
  };
}

export function addPaymentMethod(payload: NewPaymentMethod): Promise<z.infer<typeof PaymentMethodAnswer>> {
  return postJson('functions/v1/add-raw-payment-method', payload, idempotent());
}

export function deletePaymentMethod(id: string): Promise<z.infer<typeof Done>> {
  return deleteJson(`api/v1/payment-methods/${encodeURIComponent(id)}`);
}

/** 'Visa •••• 4242' / 'My Bank •••• 1234'. */
export function describePaymentMethod(method: PaymentMethod): string {
  if (method.type === 'credit_card') {
    const brand = method.card_brand && method.card_brand !== 'Unknown' ? method.card_brand : 'Card';
    return `${brand} •••• ${method.last4 ?? '????'}`;
  }
  return `${method.bank_name ?? 'Bank account'} •••• ${method.bank_last4 ?? '????'}`;
}

import { deleteJson, getJson, postJson } from '../../../../lib/api-client.js';
import { idempotent } from './idempotency.js';

/** A saved payment method (docs/api-money.md): only what may be shown, never the full numbers. */
export type PaymentMethod = {
  id: string;
  user_id: string;
  type: 'credit_card' | 'bank_account';
  card_brand: string | null;
  last4: string | null;
  expiry_date: string | null;
  card_holder_name: string | null;
  bank_name: string | null;
  bank_last4: string | null;
  notes: string | null;
  created_at: string;
};

export type NewCard = {
  type: 'credit_card';
  cardNumber: string;
  cardHolderName: string;
  expiryDate: string;
  cvv: string;
  notes?: string;
};

export type NewBankAccount = {
  type: 'bank_account';
  bank_name: string;
  account_number: string;
  notes?: string;
};

/** GET /api/v1/payment-methods: `{paymentMethods}`, own, newest first. */
export async function fetchPaymentMethods(signal?: AbortSignal): Promise<PaymentMethod[]> {
  const answer = await getJson<{ paymentMethods?: PaymentMethod[] } | null>('api/v1/payment-methods', { signal });
  return Array.isArray(answer?.paymentMethods) ? answer.paymentMethods : [];
}

export function addPaymentMethod(payload: NewCard | NewBankAccount): Promise<{ paymentMethod: PaymentMethod }> {
  return postJson('functions/v1/add-raw-payment-method', payload, idempotent());
}

export function deletePaymentMethod(id: string): Promise<{ success: boolean }> {
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

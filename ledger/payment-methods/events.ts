import { z } from 'zod';

/**
 * A customer's saved payment methods: `payment-methods-{userId}`. Only what may be shown is
 * recorded: brand, last four and expiry of a card; bank name and last four of an account.
 * No full card number, CVV or account number ever appears here (the account number is kept
 * encrypted in `payment_method_secrets`).
 */
export const paymentMethodsStream = (userId: string) => `payment-methods-${userId}`;
export const PAYMENT_METHODS_STREAM_PREFIX = 'payment-methods-';

export const CardBrand = z.enum([
  'Visa',
  'Mastercard',
  'American Express',
  'Discover',
  'JCB',
  'Diners Club',
  'UnionPay',
  'Maestro',
  'Unknown',
]);
export type CardBrand = z.infer<typeof CardBrand>;

export const NOTES_MAX = 500;
export const HOLDER_NAME_MAX = 100;
export const BANK_NAME_MAX = 100;

const notes = z.string().min(1).max(NOTES_MAX).nullable();

export const paymentMethodEventSchemas = {
  'payment-method.card-added': {
    version: 1,
    schema: z.object({
      paymentMethodId: z.uuid(),
      cardBrand: CardBrand,
      last4: z.string().regex(/^\d{4}$/),
      expiryDate: z.string().regex(/^(0[1-9]|1[0-2])\/\d{2}$/),
      cardHolderName: z.string().min(1).max(HOLDER_NAME_MAX),
      notes,
    }),
  },
  'payment-method.bank-account-added': {
    version: 1,
    schema: z.object({
      paymentMethodId: z.uuid(),
      bankName: z.string().min(1).max(BANK_NAME_MAX),
      bankLast4: z.string().regex(/^[0-9A-Z]{4}$/),
      notes,
    }),
  },
  'payment-method.removed': { version: 1, schema: z.object({ paymentMethodId: z.uuid() }) },
} as const;

type Schemas = typeof paymentMethodEventSchemas;
export type PaymentMethodEventType = keyof Schemas;
export type PaymentMethodEvent = {
  [T in PaymentMethodEventType]: { type: T; data: z.infer<Schemas[T]['schema']> };
}[PaymentMethodEventType];

export function isPaymentMethodEventType(type: string): type is PaymentMethodEventType {
  return Object.prototype.hasOwnProperty.call(paymentMethodEventSchemas, type);
}

import { z } from 'zod';

/*
 * Saved payment methods (spec 001 section 10): what the add form sends and what a saved method
 * shows. Apart from the wallet's contract (payments.ts re-exports it) so the client reads it
 * without the wallet's rules.
 */

/**
 * Form fields arrive as loose text and are checked by the ledger's pure card and bank
 * checks, so that every refusal carries its own message. Bounded only against abuse.
 */
const field = z.string().max(1000).nullish();
export const AddPaymentMethodBody = z.discriminatedUnion('type', [
  z.object({ type: z.literal('credit_card'), cardNumber: field, cardHolderName: field, expiryDate: field, cvv: field, notes: field }),
  z.object({ type: z.literal('bank_account'), bank_name: field, account_number: field, notes: field }),
]);

/**
 * The path of a call about one saved payment method. Any short text: an id that names none of the
 * caller's methods, a UUID or not, is answered 404 with the spec's text rather than 400.
 */
export const PaymentMethodParams = z.object({ id: z.string().max(100) });

/** What a saved payment method shows: never a full card number, CVV or account number. */
export const PaymentMethodView = z.object({
  id: z.string(),
  user_id: z.string(),
  type: z.enum(['credit_card', 'bank_account']),
  card_brand: z.string().nullable(),
  last4: z.string().nullable(),
  expiry_date: z.string().nullable(),
  card_holder_name: z.string().nullable(),
  bank_name: z.string().nullable(),
  bank_last4: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
});
export type PaymentMethodView = z.infer<typeof PaymentMethodView>;

/** The customer's saved payment methods, newest first. */
export const PaymentMethodList = z.object({ paymentMethods: z.array(PaymentMethodView) });

/** One saved payment method: the one asked for, or the one just added. */
export const PaymentMethodAnswer = z.object({ paymentMethod: PaymentMethodView });

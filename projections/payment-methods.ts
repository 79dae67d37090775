import { sql } from 'kysely';
import { isPaymentMethodEventType, PAYMENT_METHODS_STREAM_PREFIX, type PaymentMethodEvent } from '../ledger/payment-methods/events.js';
import { table, timestampText, type Projection } from './projection.js';

/**
 * user_payment_methods_raw from the payment-methods streams: one row per saved method,
 * deleted when the customer removes it. The encrypted account numbers in
 * payment_method_secrets are not a read model (they are not in the log) and are not touched.
 */
export const paymentMethodsProjection: Projection = {
  name: 'payment-methods',
  tables: ['user_payment_methods_raw'],
  handles: (type) => isPaymentMethodEventType(type),

  async apply(target, events) {
    const methods = table(target, 'user_payment_methods_raw');
    for (const recorded of events) {
      if (!isPaymentMethodEventType(recorded.type) || !recorded.streamId.startsWith(PAYMENT_METHODS_STREAM_PREFIX)) continue;
      const e = { type: recorded.type, data: recorded.data } as PaymentMethodEvent;
      const userId = recorded.streamId.slice(PAYMENT_METHODS_STREAM_PREFIX.length);
      const at = timestampText(recorded.recordedAt);
      switch (e.type) {
        case 'payment-method.card-added':
          await sql`insert into ${methods} (id, user_id, type, card_brand, last4, expiry_date, card_holder_name, notes, created_at)
            values (${e.data.paymentMethodId}::uuid, ${userId}::uuid, 'credit_card', ${e.data.cardBrand}, ${e.data.last4},
              ${e.data.expiryDate}, ${e.data.cardHolderName}, ${e.data.notes}, ${at}::timestamptz)`.execute(target.trx);
          break;
        case 'payment-method.bank-account-added':
          await sql`insert into ${methods} (id, user_id, type, bank_name, bank_last4, notes, created_at)
            values (${e.data.paymentMethodId}::uuid, ${userId}::uuid, 'bank_account', ${e.data.bankName}, ${e.data.bankLast4},
              ${e.data.notes}, ${at}::timestamptz)`.execute(target.trx);
          break;
        case 'payment-method.removed':
          await sql`delete from ${methods} where id = ${e.data.paymentMethodId}::uuid and user_id = ${userId}::uuid`.execute(target.trx);
          break;
      }
    }
  },
};

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD_MESSAGES } from './card.js';
import { paymentMethodEventSchemas, type PaymentMethodEvent } from './events.js';
import {
  decidePaymentMethods,
  foldPaymentMethods,
  PaymentMethodError,
  paymentMethodsDecider,
  type PaymentMethodsCommand,
} from './payment-methods.js';

/** given events, when command, then events (or an error) */
function given(events: PaymentMethodEvent[]) {
  return {
    when(command: PaymentMethodsCommand) {
      const run = () => decidePaymentMethods(command, foldPaymentMethods(events));
      return {
        then: (expected: PaymentMethodEvent[]) => expect(run()).toEqual(expected),
        thenRefuses: (code: PaymentMethodError['code'], message: string) => {
          expect(run).toThrow(PaymentMethodError);
          try {
            run();
          } catch (err) {
            expect((err as PaymentMethodError).code).toBe(code);
            expect((err as PaymentMethodError).message).toBe(message);
          }
        },
      };
    },
  };
}

const addCard = (paymentMethodId: string): Extract<PaymentMethodsCommand, { type: 'AddCard' }> => ({
  type: 'AddCard',
  paymentMethodId,
  cardBrand: 'Visa',
  last4: '4242',
  expiryDate: '12/30',
  cardHolderName: 'Ada Lovelace',
  notes: null,
});
const cardAdded = (paymentMethodId: string): PaymentMethodEvent => ({
  type: 'payment-method.card-added',
  data: { paymentMethodId, cardBrand: 'Visa', last4: '4242', expiryDate: '12/30', cardHolderName: 'Ada Lovelace', notes: null },
});
const bankAdded = (paymentMethodId: string): PaymentMethodEvent => ({
  type: 'payment-method.bank-account-added',
  data: { paymentMethodId, bankName: 'First Bank', bankLast4: '8901', notes: 'salary' },
});
const removed = (paymentMethodId: string): PaymentMethodEvent => ({ type: 'payment-method.removed', data: { paymentMethodId } });

describe('payment methods decider', () => {
  it('streams are payment-methods-{userId}', () => {
    expect(paymentMethodsDecider.category).toBe('payment-methods');
  });

  it('adding a card records its brand, last four, expiry, holder and notes', () => {
    const id = randomUUID();
    given([])
      .when(addCard(id))
      .then([cardAdded(id)]);
  });

  it('adding a bank account records the bank name and last four only', () => {
    const id = randomUUID();
    given([cardAdded(randomUUID())])
      .when({ type: 'AddBankAccount', paymentMethodId: id, bankName: 'First Bank', bankLast4: '8901', notes: 'salary' })
      .then([bankAdded(id)]);
  });

  it('an id is used once, even after its method was removed', () => {
    const id = randomUUID();
    given([cardAdded(id)])
      .when(addCard(id))
      .thenRefuses('duplicate', 'This payment method already exists.');
    given([cardAdded(id), removed(id)])
      .when(addCard(id))
      .thenRefuses('duplicate', 'This payment method already exists.');
    given([bankAdded(id)])
      .when({ type: 'AddBankAccount', paymentMethodId: id, bankName: 'B', bankLast4: '0000', notes: null })
      .thenRefuses('duplicate', 'This payment method already exists.');
  });

  it('removes a saved method', () => {
    const card = randomUUID();
    const bank = randomUUID();
    given([cardAdded(card), bankAdded(bank)])
      .when({ type: 'Remove', paymentMethodId: bank })
      .then([removed(bank)]);
    const state = foldPaymentMethods([cardAdded(card), bankAdded(bank), removed(bank)]);
    expect([...state.active]).toEqual([[card, 'credit_card']]);
  });

  it("removing an unknown or already removed method is 'Payment method not found.'", () => {
    const id = randomUUID();
    given([]).when({ type: 'Remove', paymentMethodId: id }).thenRefuses('not_found', 'Payment method not found.');
    given([cardAdded(id), removed(id)])
      .when({ type: 'Remove', paymentMethodId: id })
      .thenRefuses('not_found', 'Payment method not found.');
  });

  it('free text that reads as a card number is refused, in every field, whatever the separators', () => {
    const id = randomUUID();
    const refused = PAYMENT_METHOD_MESSAGES.cardNumberInText;
    const bank = { type: 'AddBankAccount', paymentMethodId: id, bankName: 'First Bank', bankLast4: '8901', notes: null } as const;
    given([])
      .when({ ...addCard(id), notes: 'card 4242.4242.4242.4242' })
      .thenRefuses('invalid', refused);
    given([])
      .when({ ...addCard(id), notes: '4242/4242/4242/4242' })
      .thenRefuses('invalid', refused);
    given([])
      .when({ ...addCard(id), cardHolderName: 'Ada 4242 4242 4242 4242' })
      .thenRefuses('invalid', refused);
    given([])
      .when({ ...bank, notes: 'backup card 5555-5555-5555-4444' })
      .thenRefuses('invalid', refused);
    given([])
      .when({ ...bank, bankName: 'Visa 4242424242424242' })
      .thenRefuses('invalid', refused);
  });

  it('a long number that is not a card number (an order reference) is kept', () => {
    const id = randomUUID();
    const notes = 'order ref 1234567890123456';
    given([])
      .when({ ...addCard(id), notes })
      .then([{ ...cardAdded(id), data: { ...cardAdded(id).data, notes } } as PaymentMethodEvent]);
    given([])
      .when({ type: 'AddBankAccount', paymentMethodId: id, bankName: 'First Bank', bankLast4: '8901', notes })
      .then([
        { type: 'payment-method.bank-account-added', data: { paymentMethodId: id, bankName: 'First Bank', bankLast4: '8901', notes } },
      ]);
  });

  it('every decided event fits its schema', () => {
    const id = randomUUID();
    const events = [...decidePaymentMethods(addCard(id), foldPaymentMethods([])), bankAdded(randomUUID()), removed(id)];
    for (const e of events) expect(paymentMethodEventSchemas[e.type].schema.safeParse(e.data).success).toBe(true);
  });

  it('the event schemas refuse a full card number or a CVV-shaped extra', () => {
    const card = paymentMethodEventSchemas['payment-method.card-added'].schema;
    const data = cardAdded(randomUUID()).data;
    expect(card.safeParse({ ...data, last4: '4242424242424242' }).success).toBe(false);
    // Unknown keys are stripped, so nothing beyond the listed fields reaches the log.
    expect(card.parse({ ...data, cvv: '123', cardNumber: '4242424242424242' })).toEqual(data);
  });
});

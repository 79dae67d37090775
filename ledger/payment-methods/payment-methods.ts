import { unknownCommand, type Decider } from '../decider.js';
import { freeTextProblem, PAYMENT_METHOD_MESSAGES } from './card.js';
import { paymentMethodEventSchemas, type CardBrand, type PaymentMethodEvent } from './events.js';

export type PaymentMethodType = 'credit_card' | 'bank_account';

export interface PaymentMethodsState {
  /** Saved methods now: id -> type. */
  active: Map<string, PaymentMethodType>;
  /** Every id this customer has used, removed ones included: an id is never reused. */
  used: Set<string>;
}

export function initialPaymentMethodsState(): PaymentMethodsState {
  return { active: new Map(), used: new Set() };
}

export function evolvePaymentMethods(state: PaymentMethodsState, event: PaymentMethodEvent): PaymentMethodsState {
  switch (event.type) {
    case 'payment-method.card-added':
    case 'payment-method.bank-account-added': {
      const type: PaymentMethodType = event.type === 'payment-method.card-added' ? 'credit_card' : 'bank_account';
      return {
        active: new Map(state.active).set(event.data.paymentMethodId, type),
        used: new Set(state.used).add(event.data.paymentMethodId),
      };
    }
    case 'payment-method.removed': {
      const active = new Map(state.active);
      active.delete(event.data.paymentMethodId);
      return { ...state, active };
    }
    default:
      return state;
  }
}

export function foldPaymentMethods(events: PaymentMethodEvent[]): PaymentMethodsState {
  return events.reduce(evolvePaymentMethods, initialPaymentMethodsState());
}

/** Commands carry only what may be recorded: the card number and CVV were checked and dropped before. */
export type PaymentMethodsCommand =
  | {
      type: 'AddCard';
      paymentMethodId: string;
      cardBrand: CardBrand;
      last4: string;
      expiryDate: string;
      cardHolderName: string;
      notes: string | null;
    }
  | { type: 'AddBankAccount'; paymentMethodId: string; bankName: string; bankLast4: string; notes: string | null }
  | { type: 'Remove'; paymentMethodId: string };

export const PAYMENT_METHOD_NOT_FOUND = 'Payment method not found.';

export class PaymentMethodError extends Error {
  constructor(
    readonly code: 'not_found' | 'duplicate' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'PaymentMethodError';
  }
}

/**
 * The second lock behind the form checks: free text that reads as a card number is never
 * recorded, whoever built the command. (The method's own number is not in the command.)
 */
function refuseCardNumbersIn(texts: (string | null)[]): void {
  if (texts.some((text) => freeTextProblem(text) !== null))
    throw new PaymentMethodError('invalid', PAYMENT_METHOD_MESSAGES.cardNumberInText);
}

export function decidePaymentMethods(command: PaymentMethodsCommand, state: PaymentMethodsState): PaymentMethodEvent[] {
  switch (command.type) {
    case 'AddCard':
      if (state.used.has(command.paymentMethodId)) throw new PaymentMethodError('duplicate', 'This payment method already exists.');
      refuseCardNumbersIn([command.cardHolderName, command.notes]);
      return [
        {
          type: 'payment-method.card-added',
          data: {
            paymentMethodId: command.paymentMethodId,
            cardBrand: command.cardBrand,
            last4: command.last4,
            expiryDate: command.expiryDate,
            cardHolderName: command.cardHolderName,
            notes: command.notes,
          },
        },
      ];
    case 'AddBankAccount':
      if (state.used.has(command.paymentMethodId)) throw new PaymentMethodError('duplicate', 'This payment method already exists.');
      refuseCardNumbersIn([command.bankName, command.notes]);
      return [
        {
          type: 'payment-method.bank-account-added',
          data: {
            paymentMethodId: command.paymentMethodId,
            bankName: command.bankName,
            bankLast4: command.bankLast4,
            notes: command.notes,
          },
        },
      ];
    case 'Remove':
      if (!state.active.has(command.paymentMethodId)) throw new PaymentMethodError('not_found', PAYMENT_METHOD_NOT_FOUND);
      return [{ type: 'payment-method.removed', data: { paymentMethodId: command.paymentMethodId } }];
    default:
      return unknownCommand(command);
  }
}

export const paymentMethodsDecider: Decider<PaymentMethodsCommand, PaymentMethodEvent, PaymentMethodsState> = {
  category: 'payment-methods',
  initialState: initialPaymentMethodsState,
  evolve: evolvePaymentMethods,
  decide: decidePaymentMethods,
  schemas: paymentMethodEventSchemas,
};

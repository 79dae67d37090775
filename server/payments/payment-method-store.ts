import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { type AuthInfo } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import type { UserPaymentMethodsRawTable } from '../db/schema-payment-methods.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { PaymentMethodEvent } from '../../ledger/payment-methods/events.js';
import { PaymentMethodError, paymentMethodsDecider, type PaymentMethodsCommand } from '../../ledger/payment-methods/payment-methods.js';
import { PaymentMethodView } from '../../ledger/contract/payments.js';

export const VIEW_COLUMNS = [
  'id',
  'user_id',
  'type',
  'card_brand',
  'last4',
  'expiry_date',
  'card_holder_name',
  'bank_name',
  'bank_last4',
  'notes',
  'created_at',
] as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function view(row: Selectable<UserPaymentMethodsRawTable>): PaymentMethodView {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

/** The row an added method will have, for the rare answer given before the read table shows it. */
export function viewOfCommand(userId: string, command: Exclude<PaymentMethodsCommand, { type: 'Remove' }>): PaymentMethodView {
  const none = { card_brand: null, last4: null, expiry_date: null, card_holder_name: null, bank_name: null, bank_last4: null };
  const base = { id: command.paymentMethodId, user_id: userId, notes: command.notes, created_at: new Date().toISOString() };
  return command.type === 'AddCard'
    ? {
        ...none,
        ...base,
        type: 'credit_card',
        card_brand: command.cardBrand,
        last4: command.last4,
        expiry_date: command.expiryDate,
        card_holder_name: command.cardHolderName,
      }
    : { ...none, ...base, type: 'bank_account', bank_name: command.bankName, bank_last4: command.bankLast4 };
}

/** The add command an add event recorded: a repeated request answers with what the first one added. */
export function commandOfEvent(event: PaymentMethodEvent | undefined): Exclude<PaymentMethodsCommand, { type: 'Remove' }> | undefined {
  if (event?.type === 'payment-method.card-added') return { type: 'AddCard', ...event.data };
  if (event?.type === 'payment-method.bank-account-added') return { type: 'AddBankAccount', ...event.data };
  return undefined;
}

/** Same rule as the money commands: a retried request carries the key of its first attempt. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : undefined;
}

/** Recording a command on a caller's payment methods (refusals as 4xx) and reading one of theirs back. */
export function paymentMethodStore(ledger: LedgerContext) {
  const db = ledger.database.db;

  async function record(request: FastifyRequest, caller: AuthInfo, command: PaymentMethodsCommand, key?: string) {
    try {
      return await ledger.execute(paymentMethodsDecider, caller.userId, command, {
        actor: { id: caller.userId, role: caller.role },
        // The command holds no card number, CVV or account number, and its id derives from the
        // key: it is the request's fingerprint, so a key reused for another method is refused.
        ...(key ? { idempotencyKey: key, idempotencyPayload: command } : {}),
        extra: { ip: request.ip ?? null },
      });
    } catch (err) {
      if (err instanceof PaymentMethodError) {
        throw err.code === 'not_found' ? notFound(err.message) : err.code === 'invalid' ? badRequest(err.message) : conflict(err.message);
      }
      throw err;
    }
  }

  async function findOwn(userId: string, id: string) {
    if (!UUID.test(id)) return undefined;
    return db
      .selectFrom('user_payment_methods_raw')
      .select(VIEW_COLUMNS)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }
  return { record, findOwn };
}

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { AuthServices } from '../auth/index.js';
import { authOf, type AuthInfo } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import type { UserPaymentMethodsRawTable } from '../db/schema-payment-methods.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { encrypt } from '../secrets.js';
import { checkBankAccount, checkCard } from '../../ledger/payment-methods/card.js';
import { deterministicUuid } from '../../ledger/command-handler.js';
import type { PaymentMethodEvent } from '../../ledger/payment-methods/events.js';
import {
  PAYMENT_METHOD_NOT_FOUND,
  PaymentMethodError,
  paymentMethodsDecider,
  type PaymentMethodsCommand,
} from '../../ledger/payment-methods/payment-methods.js';
import { Done } from '../../ledger/contract/common.js';
import { AddPaymentMethodBody, PaymentMethodView } from '../../ledger/contract/payments.js';

const VIEW_COLUMNS = [
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function view(row: Selectable<UserPaymentMethodsRawTable>): PaymentMethodView {
  return { ...row, created_at: new Date(row.created_at).toISOString() };
}

/** The row an added method will have, for the rare answer given before the read table shows it. */
function viewOfCommand(userId: string, command: Exclude<PaymentMethodsCommand, { type: 'Remove' }>): PaymentMethodView {
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
function commandOfEvent(event: PaymentMethodEvent | undefined): Exclude<PaymentMethodsCommand, { type: 'Remove' }> | undefined {
  if (event?.type === 'payment-method.card-added') return { type: 'AddCard', ...event.data };
  if (event?.type === 'payment-method.bank-account-added') return { type: 'AddBankAccount', ...event.data };
  return undefined;
}

/** Same rule as the money commands: a retried request carries the key of its first attempt. */
function idempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : undefined;
}

/**
 * A customer's saved payment methods (spec 001: add-raw-payment-method, and
 * user_payment_methods_raw select and delete by user and id). The owner is always the
 * caller; a card's number and CVV are checked and dropped, a bank account's number is
 * kept only encrypted, outside the event log.
 */
export function paymentMethodRoutes(
  auth: AuthServices,
  ledger: LedgerContext,
): { functions: FastifyPluginAsyncZod; api: FastifyPluginAsyncZod } {
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

  const functions: FastifyPluginAsyncZod = async (app) => {
    app.post(
      '/add-raw-payment-method',
      {
        schema: { tags: ['functions'], body: AddPaymentMethodBody, response: { 200: z.object({ paymentMethod: PaymentMethodView }) } },
      },
      async (request) => {
        const caller = authOf(request);
        const body = request.body;
        const key = idempotencyKey(request);
        // With a key the id is derived from it, so a repeat seals its number under the same id.
        const paymentMethodId = key ? deterministicUuid('payment-method', caller.userId, key) : randomUUID();
        let command: Exclude<PaymentMethodsCommand, { type: 'Remove' }>;
        let accountNumber: string | null = null;
        if (body.type === 'credit_card') {
          const card = checkCard(body, new Date());
          if (!card.ok) throw badRequest(card.error);
          command = { type: 'AddCard', paymentMethodId, ...card.value };
        } else {
          const bank = checkBankAccount(body);
          if (!bank.ok) throw badRequest(bank.error);
          accountNumber = bank.value.accountNumber;
          command = {
            type: 'AddBankAccount',
            paymentMethodId,
            bankName: bank.value.bankName,
            bankLast4: bank.value.bankLast4,
            notes: bank.value.notes,
          };
        }

        // The sealed number first: a method the log knows always has its number. A repeat
        // finds the first attempt's row and leaves it as it is.
        let sealed = false;
        if (accountNumber !== null) {
          const written = await db
            .insertInto('payment_method_secrets')
            .values({ payment_method_id: paymentMethodId, account_number_encrypted: encrypt(auth.dataKey, accountNumber) })
            .onConflict((oc) => oc.column('payment_method_id').doNothing())
            .returning('payment_method_id')
            .execute();
          sealed = written.length > 0;
        }
        const unseal = () => db.deleteFrom('payment_method_secrets').where('payment_method_id', '=', paymentMethodId).execute();
        let result: Awaited<ReturnType<typeof record>>;
        try {
          result = await record(request, caller, command, key);
        } catch (err) {
          if (sealed) await unseal();
          throw err;
        }
        const added = result.replayed ? (commandOfEvent(result.events[0]) ?? command) : command;
        const row = await findOwn(caller.userId, paymentMethodId);
        // A repeat of an add whose method is not a saved bank account now (it was a card, or it
        // has been removed since) keeps no number it may just have sealed.
        if (result.replayed && sealed && result.visible && (added.type !== 'AddBankAccount' || !row)) await unseal();
        return { paymentMethod: row ? view(row) : viewOfCommand(caller.userId, added) };
      },
    );
  };

  const api: FastifyPluginAsyncZod = async (app) => {
    const byId = z.object({ id: z.string().max(100) });

    app.get(
      '/payment-methods',
      { schema: { tags: ['api'], response: { 200: z.object({ paymentMethods: z.array(PaymentMethodView) }) } } },
      async (request) => {
        const caller = authOf(request);
        const rows = await db
          .selectFrom('user_payment_methods_raw')
          .select(VIEW_COLUMNS)
          .where('user_id', '=', caller.userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        return { paymentMethods: rows.map(view) };
      },
    );

    app.get(
      '/payment-methods/:id',
      { schema: { tags: ['api'], params: byId, response: { 200: z.object({ paymentMethod: PaymentMethodView }) } } },
      async (request) => {
        const row = await findOwn(authOf(request).userId, request.params.id);
        if (!row) throw notFound(PAYMENT_METHOD_NOT_FOUND);
        return { paymentMethod: view(row) };
      },
    );

    app.delete('/payment-methods/:id', { schema: { tags: ['api'], params: byId, response: { 200: Done } } }, async (request) => {
      const caller = authOf(request);
      const id = request.params.id;
      // Only the caller's own stream is asked: another customer's id is simply not found there.
      if (!UUID.test(id)) throw notFound(PAYMENT_METHOD_NOT_FOUND);
      await record(request, caller, { type: 'Remove', paymentMethodId: id });
      // A removed bank account's number has no further use.
      await db.deleteFrom('payment_method_secrets').where('payment_method_id', '=', id).execute();
      return { success: true as const };
    });
  };

  return { functions, api };
}

import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { badRequest } from '../../errors.js';
import { encrypt } from '../../secrets.js';
import { checkBankAccount, checkCard } from '../../../ledger/payment-methods/card.js';
import { deterministicUuid } from '../../../ledger/command-handler.js';
import { type PaymentMethodsCommand } from '../../../ledger/payment-methods/payment-methods.js';
import { AddPaymentMethodBody, PaymentMethodAnswer } from '../../../ledger/contract/payments.js';
import { commandOfEvent, idempotencyKey, paymentMethodStore, view, viewOfCommand } from '../../payments/payment-method-store.js';
import { dropAccountNumber, sealAccountNumber } from './queries.js';

export const autoPrefix = '/functions/v1';

/**
 * A customer's saved payment methods (spec 001: add-raw-payment-method, and
 * user_payment_methods_raw select and delete by user and id). The owner is always the
 * caller; a card's number and CVV are checked and dropped, a bank account's number is
 * kept only encrypted, outside the event log.
 */
const paymentMethodFunctions: FastifyPluginAsyncZod = async (app) => {
  const { authServices: auth, ledger } = app;
  const { record, findOwn } = paymentMethodStore(ledger);
  const db = ledger.database.db;

  app.post(
    '/add-raw-payment-method',
    {
      schema: { tags: ['functions'], body: AddPaymentMethodBody, response: { 200: PaymentMethodAnswer } },
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
        const written = await sealAccountNumber(db, paymentMethodId, encrypt(auth.dataKey, accountNumber));
        sealed = written.length > 0;
      }
      const unseal = () => dropAccountNumber(db, paymentMethodId);
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

export default paymentMethodFunctions;

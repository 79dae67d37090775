import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { notFound } from '../../errors.js';
import { PAYMENT_METHOD_NOT_FOUND } from '../../../ledger/payment-methods/payment-methods.js';
import { Done } from '../../../ledger/contract/common.js';
import { PaymentMethodAnswer, PaymentMethodList, PaymentMethodParams } from '../../../ledger/contract/payments.js';
import { paymentMethodStore, UUID, view } from '../../payments/payment-method-store.js';
import { dropAccountNumber, ownPaymentMethods } from './queries.js';

export const autoPrefix = '/api/v1';

/**
 * A customer's saved payment methods (spec 001: add-raw-payment-method, and
 * user_payment_methods_raw select and delete by user and id). The owner is always the
 * caller; a card's number and CVV are checked and dropped, a bank account's number is
 * kept only encrypted, outside the event log.
 */
const paymentMethodApi: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const { record, findOwn } = paymentMethodStore(ledger);
  const db = ledger.database.db;

  app.get('/payment-methods', { schema: { tags: ['api'], response: { 200: PaymentMethodList } } }, async (request) => {
    const caller = authOf(request);
    const rows = await ownPaymentMethods(db, caller.userId);
    return { paymentMethods: rows.map(view) };
  });

  app.get(
    '/payment-methods/:id',
    { schema: { tags: ['api'], params: PaymentMethodParams, response: { 200: PaymentMethodAnswer } } },
    async (request) => {
      const row = await findOwn(authOf(request).userId, request.params.id);
      if (!row) throw notFound(PAYMENT_METHOD_NOT_FOUND);
      return { paymentMethod: view(row) };
    },
  );

  app.delete(
    '/payment-methods/:id',
    { schema: { tags: ['api'], params: PaymentMethodParams, response: { 200: Done } } },
    async (request) => {
      const caller = authOf(request);
      const id = request.params.id;
      // Only the caller's own stream is asked: another customer's id is simply not found there.
      if (!UUID.test(id)) throw notFound(PAYMENT_METHOD_NOT_FOUND);
      await record(request, caller, { type: 'Remove', paymentMethodId: id });
      // A removed bank account's number has no further use.
      await dropAccountNumber(db, id);
      return { success: true as const };
    },
  );
};

export default paymentMethodApi;

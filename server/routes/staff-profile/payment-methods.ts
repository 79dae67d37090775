import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ByUserId } from '../../../ledger/contract/common.js';
import { StaffPaymentMethodAnswer, StaffPaymentMethodParams, StaffPaymentMethods } from '../../../ledger/contract/staff-buying-links.js';
import { authOf } from '../../auth/guard.js';
import { notFound } from '../../errors.js';
import { assertCanManageUser } from '../../shared/access.js';
import { UUID } from '../../ids.js';
import { paymentMethodOf, paymentMethodsOf } from './queries.js';

export const autoPrefix = '/api/v1';

/** The Payments tab of a user profile (spec 002 section 7): a customer's payment methods, masked, for staff who manage them. */
const profilePaymentMethodRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.ledger.database.db;
  const view = <T extends { created_at: Date | string }>(row: T) => ({ ...row, created_at: new Date(row.created_at).toISOString() });

  app.get(
    '/users/:userId/payment-methods',
    {
      schema: {
        tags: ['api'],
        response: { 200: StaffPaymentMethods },
        params: ByUserId,
      },
    },
    async (request) => {
      const staff = authOf(request);
      await assertCanManageUser(db, staff, request.params.userId);
      const rows = await paymentMethodsOf(db, request.params.userId);
      return { paymentMethods: rows.map(view) };
    },
  );

  app.get(
    '/users/:userId/payment-methods/:id',
    {
      schema: {
        tags: ['api'],
        response: { 200: StaffPaymentMethodAnswer },
        params: StaffPaymentMethodParams,
      },
    },
    async (request) => {
      const staff = authOf(request);
      await assertCanManageUser(db, staff, request.params.userId);
      const id = UUID.safeParse(request.params.id);
      const row = id.success ? await paymentMethodOf(db, request.params.userId, id.data) : undefined;
      if (!row) throw notFound('Payment method not found.');
      return { paymentMethod: view(row) };
    },
  );
};

export default profilePaymentMethodRoutes;

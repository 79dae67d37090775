import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { forbidden } from '../../errors.js';
import { onlyFor } from '../../shared/access.js';
import { notificationPreferences } from '../../mail/staff-notices.js';
import { userDecider } from '../../../ledger/user/user.js';
import { NotificationPreferences } from '../../../ledger/contract/settings.js';

export const autoPrefix = '/api/v1';

export const CUSTOMERS_ONLY = 'Notification preferences are for customer accounts.';

/**
 * `/api/v1/notification-preferences`: the signed-in customer's own choices of the notifications
 * they get (Settings > Notifications). Security notices are not among them: they are always sent.
 * There is no user id in the path: a customer reads and sets only their own.
 */
const customer = (role: string) => {
  if (role !== 'USER') throw forbidden(CUSTOMERS_ONLY);
};

const notificationPreferenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;
  app.get(
    '/notification-preferences',
    { config: onlyFor(['USER'], CUSTOMERS_ONLY), schema: { tags: ['api'], response: { 200: NotificationPreferences } } },
    async (request) => {
      const caller = authOf(request);
      customer(caller.role);
      return notificationPreferences(db, caller.userId);
    },
  );

  app.put(
    '/notification-preferences',
    {
      config: onlyFor(['USER'], CUSTOMERS_ONLY),
      schema: { tags: ['api'], response: { 200: NotificationPreferences }, body: NotificationPreferences },
    },
    async (request) => {
      const caller = authOf(request);
      customer(caller.role);
      await ledger.execute(
        userDecider,
        caller.userId,
        { type: 'SetNotificationPreferences', preferences: request.body },
        { actor: { id: caller.userId, role: caller.role } },
      );
      return notificationPreferences(db, caller.userId);
    },
  );
};

export default notificationPreferenceRoutes;

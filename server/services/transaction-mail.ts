import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { transactionMailListener } from '../mail/transaction-mail.js';

/**
 * The transaction e-mails (Settings > Notifications): every wallet command the ledger runs
 * here is handed to server/mail/transaction-mail.ts once recorded; removed on close.
 */
export default fp(
  async (app: FastifyInstance) => {
    const { ledger, authServices } = app;
    const off = ledger.onRecorded(transactionMailListener(ledger.database.db, authServices.mailer, app.log));
    app.addHook('onClose', async () => off());
  },
  { name: 'transaction-mail', dependencies: ['auth'] },
);

import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { RecordedListener } from '../context.js';
import type { MailLog, Mailer } from './mailer.js';
import { sendOnce } from './send-once.js';
import { transactionMail } from './templates.js';
import { notificationPreferences } from './staff-notices.js';
import { transactionMailKey, transactionOutcomeOf, type TransactionOutcomeNotice } from '../../ledger/notifications/transaction-mail.js';
import { walletDecider } from '../../ledger/wallet/decider.js';

/**
 * Mails the customer the outcome of each of their transactions a wallet command just recorded
 * (money received, a transaction settled or failed: ledger/notifications/transaction-mail.ts),
 * if they turned these mails on (Settings > Notifications; off until they do). Sent from the
 * command side like every other mail, so a replay of the read models sends nothing. Each
 * outcome's mail is taken in `mail_sent` under the transaction's id and the outcome before it is
 * sent, so it goes out once, whichever instance or retry hands the same events again; a failed
 * send gives the key back. The choice is read here, when the mail would go out.
 */
export async function mailTransactionOutcomes(
  db: Kysely<DB>,
  mailer: Mailer,
  log: MailLog,
  userId: string,
  events: { type: string; data: unknown }[],
  at: Date = new Date(),
): Promise<number> {
  const notices = events.map(transactionOutcomeOf).filter((n): n is TransactionOutcomeNotice => n !== null && !n.hidden);
  if (notices.length === 0) return 0;
  const user = await db.selectFrom('users').select(['email', 'full_name', 'role']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.role !== 'USER') return 0;
  if (!(await notificationPreferences(db, userId)).transactionsEmail) return 0;
  // A transaction staff recorded as hidden is left out of the customer's view; its later outcome too.
  const hidden = new Set(
    (
      await db
        .selectFrom('transactions')
        .select('id')
        .where('user_id', '=', userId)
        .where(
          'id',
          'in',
          notices.map((n) => n.transactionId),
        )
        .where('is_hidden', '=', true)
        .execute()
    ).map((r) => r.id),
  );
  let taken = 0;
  for (const notice of notices) {
    if (hidden.has(notice.transactionId)) continue;
    if (await sendOnce(db, transactionMailKey(notice), mailer, transactionMail(user.email, user.full_name, notice, at), log)) taken++;
  }
  return taken;
}

/** The `LedgerContext.onRecorded` listener that mails transaction outcomes of wallet commands. */
export function transactionMailListener(db: Kysely<DB>, mailer: Mailer, log: MailLog): RecordedListener {
  return async ({ category, id, events }) => {
    if (category !== walletDecider.category) return;
    try {
      await mailTransactionOutcomes(db, mailer, log, id, events);
    } catch (err) {
      log.warn({ err }, 'transaction mails not sent');
    }
  };
}

import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { sendQuietly, type MailLog, type MailMessage, type Mailer } from './mailer.js';

/**
 * Sends `message` once for `key` (the welcome mail, staff notices, transaction mails): the key
 * is taken in `mail_sent` before sending, so two instances, a retry or a restart handing the same
 * thing again send nothing; a send that fails gives the key back, so a later call sends it. The
 * send itself is not awaited. Answers whether this call took the key.
 */
export async function sendOnce(db: Kysely<DB>, key: string, mailer: Mailer, message: MailMessage, log: MailLog): Promise<boolean> {
  const first = await db
    .insertInto('mail_sent')
    .values({ key })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!first) return false;
  void sendQuietly(mailer, message, log).then(async (sent) => {
    if (!sent)
      await db
        .deleteFrom('mail_sent')
        .where('key', '=', key)
        .execute()
        .catch((err: unknown) => log.warn({ err, key }, 'mail key not released'));
  });
  return true;
}

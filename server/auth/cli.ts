import type { Config } from '../config.js';
import { createLedgerContext } from '../context.js';
import { createMailer } from '../mail/mailer.js';
import type { CaptchaVerifier } from '../captcha/captcha.js';
import { Accounts } from './accounts.js';
import { SessionService } from './sessions.js';
import { createStaff } from './staff-accounts.js';

const noCaptcha: CaptchaVerifier = {
  provider: 'none',
  challenge: async () => ({}),
  check: async () => ({ ok: false, error: 'not available here' }),
  spend: async () => ({ ok: false, error: 'not available here' }),
};

/** `ledger create-staff`: the account service without HTTP (no sessions are issued here). */
export async function createStaffFromCli(config: Config, input: Parameters<typeof createStaff>[1]) {
  const ledger = await createLedgerContext(config);
  try {
    const sessions = new SessionService(
      ledger.database.db,
      () => {
        throw new Error('no sessions from the command line');
      },
      config.ACCESS_TOKEN_TTL_SECONDS,
    );
    const accounts = new Accounts(ledger.database.db, ledger, sessions, createMailer(config), noCaptcha, config.PUBLIC_URL ?? '');
    return await createStaff(accounts, input);
  } finally {
    await ledger.close();
  }
}

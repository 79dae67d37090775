import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import type { DB } from '../db/schema.js';
import { decrypt, encrypt } from '../secrets.js';
import type { Actor } from '../../ledger/command-handler.js';
import type { Mailer, MailLog } from '../mail/mailer.js';
import { sendQuietly } from '../mail/mailer.js';
import { emailOtpMail } from '../mail/templates.js';
import { hashPassword, hmac, sameDigest, sixDigitCode, verifyPassword } from './crypto.js';
import { isRecoveryCodeShape, newRecoveryCodes, normaliseRecoveryCode } from './recovery-codes.js';
import { authErrors } from './errors.js';
import { clearFailures, countAttempt, FAILURE_WINDOW_MS } from './failures.js';
import type { Accounts, RequestInfo } from './accounts.js';
import type { SessionService } from './sessions.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
const EMAIL_OTP_TTL_MS = 10 * 60_000;
const EMAIL_OTP_MAX_ATTEMPTS = 5;
/** E-mailed codes sent to one account within the failure window (failures.ts); more are not sent. */
const EMAIL_OTP_MAX_SENT = 5;
/** Re-authentication (password confirmed) and a fresh e-mail code count for this long. */
export const FRESH_MS = 5 * 60_000;
const ISSUER = 'wallet-ledger';

export interface SessionAuth {
  userId: string;
  sessionId: string;
  role: string;
}

/** Marks an open challenge answered; false when it was answered already (by a parallel verification) or expired. */
async function spendChallenge(trx: Kysely<DB>, challengeId: string): Promise<boolean> {
  const spent = await trx
    .updateTable('auth_mfa_challenges')
    .set({ verified_at: new Date() })
    .where('id', '=', challengeId)
    .where('verified_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('id')
    .executeTakeFirst();
  return Boolean(spent);
}

/** The rule of `SecondFactors.requiredAal`, for a caller that already knows whether a verified factor exists. */
export function requiredAalFor(activeMfaMethod: 'totp' | 'email' | null, hasVerifiedFactor: boolean): 'aal1' | 'aal2' {
  if (activeMfaMethod === 'email') return 'aal2';
  return hasVerifiedFactor ? 'aal2' : 'aal1';
}

/** Second factors: authenticator apps (TOTP, secrets encrypted at rest) and e-mailed codes. */
export class SecondFactors {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly accounts: Accounts,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
    private readonly dataKey: Buffer,
  ) {}

  private async hasVerifiedFactor(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('auth_mfa_factors')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'verified')
      .executeTakeFirst();
    return Boolean(row);
  }

  /** Whether the user's second step is the authenticator app (chosen as the method, or verified). */
  private async usesAuthenticator(user: { id: string; active_mfa_method: 'totp' | 'email' | null }): Promise<boolean> {
    return user.active_mfa_method === 'totp' || (await this.hasVerifiedFactor(user.id));
  }

  /** The level a session must reach before the rest of the API opens to it. */
  async requiredAal(user: { id: string; active_mfa_method: 'totp' | 'email' | null }): Promise<'aal1' | 'aal2'> {
    if (user.active_mfa_method === 'email') return 'aal2';
    return requiredAalFor(user.active_mfa_method, await this.hasVerifiedFactor(user.id));
  }

  /**
   * Only one second factor is active at a time (spec 001 section 4): no authenticator while
   * e-mail codes are on, and no e-mail codes while a verified authenticator exists.
   */
  async assertMethodAllowed(userId: string, method: 'totp' | 'email'): Promise<void> {
    if (method === 'totp') {
      const user = await this.accounts.findById(userId);
      if (user?.active_mfa_method === 'email') throw authErrors.emailMfaActive();
    } else if (await this.hasVerifiedFactor(userId)) {
      throw authErrors.totpMfaActive();
    }
  }

  async enrol(auth: SessionAuth & { aal: string }, email: string, friendlyName: string | undefined) {
    await this.assertMethodAllowed(auth.userId, 'totp');
    if ((await this.hasVerifiedFactor(auth.userId)) && auth.aal !== 'aal2') throw authErrors.mfaRequired();
    // One pending enrolment at a time: an abandoned one is replaced.
    const stale = await this.db
      .deleteFrom('auth_mfa_factors')
      .where('user_id', '=', auth.userId)
      .where('status', '=', 'unverified')
      .returning('id')
      .execute();
    for (const f of stale)
      await this.accounts.record(auth.userId, { type: 'RemoveFactor', factorId: f.id }, { id: auth.userId, role: auth.role });
    const id = randomUUID();
    const secret = generateSecret();
    await this.db
      .insertInto('auth_mfa_factors')
      .values({
        id,
        user_id: auth.userId,
        factor_type: 'totp',
        friendly_name: friendlyName ?? 'Authenticator app',
        status: 'unverified',
        secret_encrypted: encrypt(this.dataKey, secret),
        last_used_step: null,
        verified_at: null,
      })
      .execute();
    await this.accounts.record(auth.userId, { type: 'EnrolFactor', factorId: id }, { id: auth.userId, role: auth.role });
    const uri = generateURI({ issuer: ISSUER, label: email, secret });
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    // The SVG itself, as GoTrue answers it: Supabase's SDK (and our client, web/src/features/customer/settings/api/security.ts) makes it a data URL.
    return { id, type: 'totp' as const, totp: { qr_code: svg, secret, uri } };
  }

  private async ownFactor(userId: string, factorId: string) {
    const factor = await this.db
      .selectFrom('auth_mfa_factors')
      .selectAll()
      .where('id', '=', factorId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!factor) throw authErrors.factorNotFound();
    return factor;
  }

  async challenge(auth: SessionAuth, factorId: string) {
    await this.ownFactor(auth.userId, factorId);
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
    await this.db
      .insertInto('auth_mfa_challenges')
      .values({ id, factor_id: factorId, session_id: auth.sessionId, expires_at: expiresAt, verified_at: null })
      .execute();
    return { id, expires_at: Math.floor(expiresAt.getTime() / 1000) };
  }

  /**
   * Checks a code against the challenge; a code (its time step) is accepted once. Wrong codes
   * count against the user (`totp:{userId}`, failures.ts): 10 in 15 minutes refuse further codes
   * with 429 until the window passes; a right one clears the count.
   */
  async verify(auth: SessionAuth, factorId: string, challengeId: string, code: string, log: MailLog) {
    const factor = await this.ownFactor(auth.userId, factorId);
    if (factor.status === 'verified' && isRecoveryCodeShape(code)) return this.verifyRecoveryCode(auth, factorId, challengeId, code, log);
    // An enrolment begun before e-mail codes were turned on cannot finish while they are on.
    if (factor.status === 'unverified') await this.assertMethodAllowed(auth.userId, 'totp');
    await this.assertOpenChallenge(auth, factorId, challengeId);
    const secret = decrypt(this.dataKey, factor.secret_encrypted);
    const lastStep = factor.last_used_step === null ? undefined : Number(factor.last_used_step);
    const failures = `totp:${auth.userId}`;
    await countAttempt(this.db, failures);
    const result = /^\d{6}$/.test(code)
      ? await verifyTotp({ secret, token: code, epochTolerance: 30, afterTimeStep: lastStep })
      : { valid: false as const };
    if (!result.valid) throw authErrors.mfaFailed();
    const timeStep = (result as { timeStep: number }).timeStep;
    // The code's time step and the challenge are spent together, race-free: of two parallel
    // verifications (the same code, or two codes of neighbouring steps) exactly one passes.
    const spent = await this.db.transaction().execute(async (trx) => {
      const step = await trx
        .updateTable('auth_mfa_factors')
        .set({
          last_used_step: timeStep,
          ...(factor.status === 'unverified' ? { status: 'verified' as const, verified_at: new Date() } : {}),
        })
        .where('id', '=', factorId)
        .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(timeStep))]))
        .returning('id')
        .executeTakeFirst();
      if (!step || !(await spendChallenge(trx, challengeId))) throw authErrors.mfaFailed();
      return true;
    });
    if (!spent) throw authErrors.mfaFailed();
    await clearFailures(this.db, failures);
    await this.sessions.upgrade(auth.sessionId, { aal: 'aal2', method: 'totp' });
    await this.accounts.recordSignIn(auth.sessionId, { id: auth.userId, role: auth.role }, log);
    if (factor.status === 'verified') return this.sessionBody(auth);
    await this.accounts.record(auth.userId, { type: 'VerifyFactor', factorId }, { id: auth.userId, role: auth.role });
    // The enrolment's recovery codes: shown in this answer only, stored as argon2id hashes.
    const recoveryCodes = await this.issueRecoveryCodes(auth);
    await this.accounts.notify(auth.userId, { kind: 'factor-added', at: new Date() }, log);
    return { ...(await this.sessionBody(auth)), recovery_codes: recoveryCodes };
  }

  /**
   * Ten new one-time codes replace the user's earlier ones. A code holds about 49 bits, so it is
   * stored as a password is (argon2id with a random salt, ASVS 6.5.2), never as a plain hash.
   */
  private async issueRecoveryCodes(auth: SessionAuth): Promise<string[]> {
    const codes = newRecoveryCodes();
    const digests = await Promise.all(codes.map((c) => hashPassword(normaliseRecoveryCode(c))));
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('auth_mfa_recovery_codes').where('user_id', '=', auth.userId).execute();
      await trx
        .insertInto('auth_mfa_recovery_codes')
        .values(digests.map((d) => ({ code_digest: d, user_id: auth.userId, used_at: null })))
        .execute();
    });
    await this.accounts.record(auth.userId, { type: 'IssueRecoveryCodes', count: codes.length }, { id: auth.userId, role: auth.role });
    return codes;
  }

  /** Refuses unless the challenge is the session's own for this factor, not yet answered nor expired (all fail alike). */
  private async assertOpenChallenge(auth: SessionAuth, factorId: string, challengeId: string): Promise<void> {
    const challenge = await this.db
      .selectFrom('auth_mfa_challenges')
      .selectAll()
      .where('id', '=', challengeId)
      .where('factor_id', '=', factorId)
      .executeTakeFirst();
    if (!challenge || challenge.session_id !== auth.sessionId || challenge.verified_at || challenge.expires_at < new Date())
      throw authErrors.mfaFailed();
  }

  /**
   * A recovery code in place of the authenticator's code at the second step: spent by its first
   * use, counted with the authenticator's wrong codes (`totp:{userId}`), recorded and mailed.
   */
  private async verifyRecoveryCode(auth: SessionAuth, factorId: string, challengeId: string, code: string, log: MailLog) {
    await this.assertOpenChallenge(auth, factorId, challengeId);
    const failures = `totp:${auth.userId}`;
    await countAttempt(this.db, failures);
    // Every code of the account, unspent first: a spent one is told apart, so its owner knows
    // that code is gone (and was mailed when it was used) rather than mistyped.
    const codes = await this.db
      .selectFrom('auth_mfa_recovery_codes')
      .select(['code_digest', 'used_at'])
      .where('user_id', '=', auth.userId)
      .execute();
    codes.sort((a, b) => Number(a.used_at !== null) - Number(b.used_at !== null));
    let match: { code_digest: string; used_at: Date | null } | undefined;
    for (const row of codes) {
      if (await verifyPassword(row.code_digest, normaliseRecoveryCode(code))) {
        match = row;
        break;
      }
    }
    if (match === undefined) throw authErrors.recoveryCodeInvalid();
    if (match.used_at !== null) throw authErrors.recoveryCodeUsed();
    const digest = match.code_digest;
    // The code and the challenge are spent together, race-free: of two parallel verifications
    // (the same code, or two valid codes) exactly one passes, and a losing code stays unspent.
    await this.db.transaction().execute(async (trx) => {
      const code = await trx
        .updateTable('auth_mfa_recovery_codes')
        .set({ used_at: new Date() })
        .where('code_digest', '=', digest)
        .where('used_at', 'is', null)
        .returning('code_digest')
        .executeTakeFirst();
      if (!code) throw authErrors.recoveryCodeUsed();
      if (!(await spendChallenge(trx, challengeId))) throw authErrors.mfaFailed();
    });
    await clearFailures(this.db, failures);
    const left = await this.db
      .selectFrom('auth_mfa_recovery_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', auth.userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    await this.accounts.record(auth.userId, { type: 'UseRecoveryCode', left: Number(left?.n ?? 0) }, { id: auth.userId, role: auth.role });
    await this.sessions.upgrade(auth.sessionId, { aal: 'aal2', method: 'recovery_code' });
    await this.accounts.recordSignIn(auth.sessionId, { id: auth.userId, role: auth.role }, log);
    await this.accounts.notify(auth.userId, { kind: 'recovery-code-used', at: new Date(), left: Number(left?.n ?? 0) }, log);
    return this.sessionBody(auth);
  }

  /**
   * A manager or admin removes a customer's second factor (every authenticator, the recovery
   * codes and e-mailed codes as the method), with a reason: recorded, and mailed to the customer.
   */
  async removeByStaff(userId: string, reason: string, actor: Actor, log: MailLog): Promise<void> {
    await this.accounts.record(userId, { type: 'RemoveMfaByStaff', reason }, actor);
    await this.db.deleteFrom('auth_mfa_factors').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('auth_mfa_recovery_codes').where('user_id', '=', userId).execute();
    await this.accounts.notify(userId, { kind: 'factor-removed-by-staff', at: new Date(), reason }, log);
  }

  async remove(auth: SessionAuth & { aal: string }, factorId: string, log: MailLog) {
    const factor = await this.ownFactor(auth.userId, factorId);
    if (factor.status === 'verified') {
      if (auth.aal !== 'aal2') throw authErrors.mfaRequired();
      await this.requireFresh(auth.sessionId, 'reauth');
    }
    await this.db.deleteFrom('auth_mfa_factors').where('id', '=', factorId).execute();
    await this.accounts.record(auth.userId, { type: 'RemoveFactor', factorId }, { id: auth.userId, role: auth.role });
    if (factor.status === 'verified') {
      if (!(await this.hasVerifiedFactor(auth.userId)))
        await this.db.deleteFrom('auth_mfa_recovery_codes').where('user_id', '=', auth.userId).execute();
      await this.accounts.notify(auth.userId, { kind: 'factor-removed', at: new Date() }, log);
    }
    return { id: factorId };
  }

  async requireFresh(sessionId: string, what: 'reauth' | 'email'): Promise<void> {
    const session = await this.sessions.get(sessionId);
    const at = what === 'reauth' ? session?.reauthenticated_at : session?.email_otp_verified_at;
    if (!at || Date.now() - new Date(at).getTime() > FRESH_MS)
      throw what === 'reauth' ? authErrors.reauthRequired() : authErrors.otpInvalid();
  }

  /**
   * Sends a 6-digit code to an existing confirmed account, at most EMAIL_OTP_MAX_SENT in the
   * failure window; answers the same either way. The new code is stored before the count, so
   * parallel requests cannot all pass it; one over the cap is taken back, and the earlier code
   * stays usable.
   */
  async sendEmailCode(email: string, req: RequestInfo): Promise<void> {
    const user = await this.accounts.findByEmail(email);
    if (!user || !user.email_confirmed_at) return;
    // Such a code could never be used (verifyEmailCode refuses it): no mail, the same answer.
    if (await this.usesAuthenticator(user)) return;
    const code = sixDigitCode();
    const id = randomUUID();
    await this.db
      .insertInto('auth_one_time_tokens')
      .values({
        token_hash: id,
        code_digest: this.codeDigest(user.id, code),
        user_id: user.id,
        kind: 'email_otp',
        expires_at: new Date(Date.now() + EMAIL_OTP_TTL_MS),
        used_at: null,
      })
      .execute();
    const sent = await this.db
      .selectFrom('auth_one_time_tokens')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.id)
      .where('kind', '=', 'email_otp')
      .where('created_at', '>', new Date(Date.now() - FAILURE_WINDOW_MS))
      .executeTakeFirst();
    if (Number(sent?.n ?? 0) > EMAIL_OTP_MAX_SENT) {
      await this.db.deleteFrom('auth_one_time_tokens').where('token_hash', '=', id).execute();
      req.log.warn({ userId: user.id }, 'e-mail code not sent: too many codes for this account in 15 minutes');
      return;
    }
    await this.db
      .updateTable('auth_one_time_tokens')
      .set({ used_at: new Date() })
      .where('user_id', '=', user.id)
      .where('kind', '=', 'email_otp')
      .where('used_at', 'is', null)
      .where('token_hash', '!=', id)
      .execute();
    void sendQuietly(this.mailer, emailOtpMail(user.email, code), req.log);
  }

  private codeDigest(userId: string, code: string): string {
    return hmac(this.dataKey, `email-otp:${userId}:${code}`);
  }

  /**
   * Verifies the latest e-mailed code for the session's user; 5 wrong tries spend it, and wrong
   * codes count against the user (`email-code:{userId}`, failures.ts): 10 in 15 minutes refuse
   * further codes with 429 until the window passes; a right one clears the count. A code
   * counts as the second step only for a user without an authenticator: one whose active method
   * is e-mail, or who is turning e-mail codes on. With a verified authenticator (or `totp` as the
   * method) it is refused before the code is looked at, so e-mail access never stands in for it.
   */
  async verifyEmailCode(auth: SessionAuth, email: string, code: string, log: MailLog) {
    const user = await this.accounts.findById(auth.userId);
    if (!user || user.email.toLowerCase() !== email.trim().toLowerCase()) throw authErrors.otpInvalid();
    if (await this.usesAuthenticator(user)) throw authErrors.emailCodeNotAccepted();
    const row = await this.db
      .selectFrom('auth_one_time_tokens')
      .selectAll()
      .where('user_id', '=', auth.userId)
      .where('kind', '=', 'email_otp')
      .where('used_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    if (!row) throw authErrors.otpInvalid();
    if (row.expires_at < new Date()) throw authErrors.otpExpired();
    const failures = `email-code:${auth.userId}`;
    await countAttempt(this.db, failures);
    if (!/^\d{6}$/.test(code) || !row.code_digest || !sameDigest(row.code_digest, this.codeDigest(auth.userId, code))) {
      const attempts = row.attempts + 1;
      await this.db
        .updateTable('auth_one_time_tokens')
        .set({ attempts, ...(attempts >= EMAIL_OTP_MAX_ATTEMPTS ? { used_at: new Date() } : {}) })
        .where('token_hash', '=', row.token_hash)
        .execute();
      throw authErrors.otpInvalid();
    }
    const spent = await this.db
      .updateTable('auth_one_time_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', row.token_hash)
      .where('used_at', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    if (!spent) throw authErrors.otpInvalid();
    await clearFailures(this.db, failures);
    await this.sessions.upgrade(auth.sessionId, { aal: 'aal2', emailOtpVerifiedAt: new Date(), method: 'otp' });
    await this.accounts.recordSignIn(auth.sessionId, { id: auth.userId, role: auth.role }, log);
    return this.sessionBody(auth);
  }

  private async sessionBody(auth: SessionAuth) {
    const user = (await this.accounts.findById(auth.userId))!;
    return { ...(await this.sessions.issue(auth.sessionId, auth.userId, user.role)), user: await this.accounts.view(user) };
  }
}

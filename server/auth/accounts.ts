import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { LedgerContext } from '../context.js';
import type { Actor } from '../../ledger/command-handler.js';
import { userDecider, type UserCommand } from '../../ledger/user/user.js';
import type { Role } from '../../ledger/user/events.js';
import type { Mailer } from '../mail/mailer.js';
import { sendQuietly, type MailLog } from '../mail/mailer.js';
import { mailStaffNotices } from '../mail/staff-notices.js';
import { sendOnce } from '../mail/send-once.js';
import { isStaffActor } from '../../ledger/notifications/staff-notices.js';
import {
  accountExistsMail,
  confirmationMail,
  passwordResetMail,
  securityMail,
  welcomeMail,
  type SecurityNotice,
} from '../mail/templates.js';
import type { CaptchaVerifier } from '../captcha/captcha.js';
import { hashPassword, sha256, verifyPassword } from './crypto.js';
import { AuthError, authErrors } from './errors.js';
import { clearFailures, countAttempt, SignInThrottle } from './failures.js';
import { DatabaseThrottleStore } from './throttle.js';
import type { AmrEntry, SessionService } from './sessions.js';
import { requiredAalFor } from './mfa.js';
import { assertPasswordAllowed } from './password-policy.js';
import { isNewDevice, networkOf } from './new-device.js';
import { issueLinkToken } from './one-time-tokens.js';
import { unconfirmedView, userView, type ViewedUser } from './user-view.js';
import { AnswerTiming } from './answer-timing.js';

/** A session's sign-in or its last password confirmation counts as a recent authentication this long. */
export const RECENT_AUTH_MS = 5 * 60_000;
const SIGNUP_LINK_TTL_MS = 24 * 3600_000;
/** How long after a confirmation mail no other is sent for the same address. */
const CONFIRMATION_RESEND_MS = 10 * 60_000;
const RECOVERY_LINK_TTL_MS = 3600_000;
/** Mails an hour to an account's owner about sign-ups with their address. */
const ACCOUNT_EXISTS_MAILS = 3;
/** Reset links, and confirmation links, mailed to one account within an hour; more are not sent (the answer stays the same). */
export const LINK_MAILS_PER_HOUR = 5;

export type { UserView } from '../../ledger/contract/access.js';
import type { UserView } from '../../ledger/contract/access.js';

export interface RequestInfo {
  ip: string | null;
  userAgent: string | null;
  log: { warn: (obj: unknown, msg?: string) => void };
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The users whose address, as this server normalises it, is `email`. Addresses are told apart
 * only where they are reserved (auth_email_index), never by the database's `lower()`, which
 * folds some letters otherwise.
 */
export function usersByEmail(db: Kysely<DB>, email: string) {
  const reserved = db.selectFrom('auth_email_index').select('user_id').where('email_lower', '=', normaliseEmail(email));
  return db.selectFrom('users').where('id', '=', reserved);
}

export class Accounts {
  constructor(
    readonly db: Kysely<DB>,
    private readonly ledger: LedgerContext,
    private readonly sessions: SessionService,
    private readonly mailer: Mailer,
    private readonly captcha: CaptchaVerifier,
    private readonly publicUrl: string,
    private readonly log: MailLog = console,
    /** Sign-in throttling (server/auth/failures.ts); by default on counters in this database. */
    readonly throttle: SignInThrottle = new SignInThrottle(new DatabaseThrottleStore(db)),
  ) {}

  /**
   * Records a fact about the user as an event and waits until the users table shows it. A staff
   * action the customer must be told of (staff-notices.ts) is mailed to them here, once per event.
   */
  async record(userId: string, command: UserCommand, actor: Actor, extra?: Record<string, unknown>): Promise<void> {
    const result = await this.ledger.execute(userDecider, userId, command, { actor, extra });
    if (isStaffActor(actor.role) && !result.replayed)
      await mailStaffNotices(this.db, this.mailer, this.log, userId, result.events, result.eventIds);
  }

  async findByEmail(email: string) {
    return usersByEmail(this.db, email).selectAll().executeTakeFirst();
  }

  async findById(id: string) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user as the auth calls answer it (user-view.ts). */
  view(user: ViewedUser): Promise<UserView> {
    return userView(this.db, this.ledger.store, user);
  }

  /**
   * Creates an account: reserves the e-mail (unique, case-insensitive), stores the password
   * hash, then records `user.registered` (and the customer profile) on the user's stream.
   */
  async createAccount(input: {
    email: string;
    password: string;
    fullName: string;
    role: Role;
    source: 'self' | 'operator' | 'demo' | 'staff';
    requiresPasswordChange: boolean;
    emailConfirmed: boolean;
    actor?: Actor;
  }): Promise<string> {
    assertPasswordAllowed(input.password, [input.email, input.fullName]);
    const userId = randomUUID();
    const passwordHash = await hashPassword(input.password);
    const reserved = await this.db
      .insertInto('auth_email_index')
      .values({ email_lower: normaliseEmail(input.email), user_id: userId })
      .onConflict((oc) => oc.column('email_lower').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!reserved) throw authErrors.emailExists();
    await this.db.insertInto('auth_credentials').values({ user_id: userId, password_hash: passwordHash }).execute();
    await this.record(
      userId,
      {
        type: 'Register',
        email: input.email.trim(),
        fullName: input.fullName.trim(),
        role: input.role,
        source: input.source,
        requiresPasswordChange: input.requiresPasswordChange,
        emailConfirmed: input.emailConfirmed,
      },
      input.actor ?? { id: userId, role: input.role },
    );
    return userId;
  }

  /**
   * Self sign-up. For an address that already has an account the answer is the same as for a
   * new one (a user that is not confirmed yet, with an id of no account), nothing is created,
   * and the owner is mailed instead (at most ACCOUNT_EXISTS_MAILS an hour): the answer does
   * not tell whether an address is registered.
   */
  async signUp(
    input: { email: string; password: string; fullName: string; captchaToken: string | undefined },
    req: RequestInfo,
  ): Promise<UserView> {
    await this.spendCaptcha(input.captchaToken);
    assertPasswordAllowed(input.password, [input.email, input.fullName]);
    const startedAt = performance.now();
    let userId: string;
    try {
      userId = await this.createAccount({ ...input, role: 'USER', source: 'self', requiresPasswordChange: false, emailConfirmed: false });
    } catch (error) {
      if (!(error instanceof AuthError && error.code === 'email_exists')) throw error;
      await this.mailExistingOwner(input.email, req);
      // Creating nothing is quicker than creating an account: answered when a new account's sign-up would be.
      await this.signUpTiming.padCheap(startedAt);
      return unconfirmedView(input.email, input.fullName);
    }
    await this.sendConfirmation({ id: userId, email: input.email.trim(), full_name: input.fullName.trim() }, req);
    const view = await this.view((await this.findById(userId))!);
    this.signUpTiming.noteFull(startedAt);
    return view;
  }

  /** How long sign-ups that created an account took, which a sign-up for a known address takes too. */
  private readonly signUpTiming = new AnswerTiming();

  private async mailExistingOwner(email: string, req: RequestInfo): Promise<void> {
    const owner = await this.findByEmail(email);
    if (!owner) return;
    if ((await this.throttle.store.increment(`signup-exists:${owner.id}`, 3600_000)) > ACCOUNT_EXISTS_MAILS) return;
    void sendQuietly(this.mailer, accountExistsMail(owner.email, `${this.publicUrl}/login`), req.log);
  }

  /** Mails a new confirmation link (valid 24 hours) to an address not yet confirmed. */
  private async sendConfirmation(user: { id: string; email: string; full_name: string }, req: RequestInfo): Promise<void> {
    if (!(await this.mailAllowed(`confirmation-mail:${user.id}`, req))) return;
    const token = await issueLinkToken(this.db, user.id, 'signup', SIGNUP_LINK_TTL_MS);
    const link = `${this.publicUrl}/auth/v1/verify?type=signup&token=${token}`;
    void sendQuietly(this.mailer, confirmationMail(user.email, user.full_name, link), req.log);
  }

  /**
   * A new confirmation link for an unconfirmed address, unless one went out in the last
   * ten minutes (its mail may still be on its way). Answers nothing either way: whether an
   * address has an account is not told.
   */
  async resendConfirmation(email: string, req: RequestInfo): Promise<void> {
    const user = await this.findByEmail(email);
    if (user && !user.email_confirmed_at) await this.offerConfirmation(user, req);
  }

  private async offerConfirmation(user: { id: string; email: string; full_name: string }, req: RequestInfo): Promise<void> {
    const recent = await this.db
      .selectFrom('auth_one_time_tokens')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'signup')
      .where('used_at', 'is', null)
      .where('created_at', '>', new Date(Date.now() - CONFIRMATION_RESEND_MS))
      .executeTakeFirst();
    if (!recent) await this.sendConfirmation(user, req);
  }

  /** The e-mailed confirmation link. True when the address is (now) confirmed; the welcome mail follows. */
  async confirmSignup(token: string, log: RequestInfo['log']): Promise<boolean> {
    const row = await this.db
      .updateTable('auth_one_time_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', sha256(token))
      .where('kind', '=', 'signup')
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .returning('user_id')
      .executeTakeFirst();
    if (!row) return false;
    await this.record(row.user_id, { type: 'ConfirmEmail' }, { id: row.user_id, role: 'USER' });
    await this.sendWelcome(row.user_id, log);
    return true;
  }

  /**
   * The welcome mail, once per account, with the name the account holds: sent by the server when
   * the address is confirmed (no caller chooses its address or text).
   */
  async sendWelcome(userId: string, log: RequestInfo['log']): Promise<void> {
    const user = await this.findById(userId);
    if (!user || !user.email_confirmed_at) return;
    // Taken before sending, so that two calls at once send one mail; given back when the mail
    // fails, so that a later call sends it.
    await sendOnce(this.db, `welcome:${user.id}`, this.mailer, welcomeMail(user.email, user.full_name), log);
  }

  /** A security notice to the account's own address (what changed, when, and what to do if it was not them). */
  async notify(userId: string, notice: SecurityNotice, log: RequestInfo['log'] = this.log): Promise<void> {
    const user = await this.findById(userId);
    if (user) void sendQuietly(this.mailer, securityMail(user.email, user.full_name, notice), log);
  }

  /**
   * Whether the session's owner proved it recently: a password sign-in or a password
   * confirmation (verifyOnly) within RECENT_AUTH_MS. A reset-link session never counts.
   */
  async recentlyAuthenticated(sessionId: string): Promise<boolean> {
    const session = await this.sessions.get(sessionId);
    if (!session || session.recovery) return false;
    const times = [session.created_at, session.reauthenticated_at].filter((d): d is Date => d !== null).map((d) => new Date(d).getTime());
    return times.some((at) => Date.now() - at <= RECENT_AUTH_MS);
  }

  private async spendCaptcha(token: string | undefined, minCost?: number): Promise<void> {
    if (!token) throw authErrors.captchaRequired();
    const result = await this.captcha.spend(token, minCost);
    if (!result.ok) throw authErrors.captchaFailed(result.error);
  }

  /**
   * Password sign-in. One neutral answer for an unknown e-mail and a wrong password, with
   * a password check either way so that the timing does not tell them apart. Throttled per
   * address and per client without a lock (`SignInThrottle`): after a failure for the address
   * or from the client a solved captcha is needed, as costly as the client's suspicion asks.
   */
  async signInWithPassword(input: { email: string; password: string; captchaToken: string | undefined }, req: RequestInfo) {
    const email = normaliseEmail(input.email);
    const client = req.ip ?? 'unknown';
    const { captchaNeeded, minCost } = await this.throttle.beforeAttempt(email, client);
    if (captchaNeeded) await this.spendCaptcha(input.captchaToken, minCost);

    const user = await this.findByEmail(input.email);
    const credentials = user
      ? await this.db.selectFrom('auth_credentials').select('password_hash').where('user_id', '=', user.id).executeTakeFirst()
      : undefined;
    const ok = await verifyPassword(credentials?.password_hash ?? null, input.password);
    if (!user || !ok) {
      await this.throttle.failed(client);
      throw authErrors.invalidCredentials();
    }
    await this.throttle.succeeded(email);
    if (!user.email_confirmed_at) {
      // The link may have expired or gone astray: the right password gets a fresh one.
      await this.offerConfirmation(user, req);
      throw authErrors.emailNotConfirmed();
    }
    if (user.banned_until && new Date(user.banned_until) > new Date()) throw authErrors.banned();
    const sessionId = await this.sessions.create(user.id, { aal: 'aal1', ipAddress: req.ip, userAgent: req.userAgent });
    // Without a second step the password completes the sign-in; otherwise the second step does (mfa.ts).
    if ((await this.requiredAal(user)) === 'aal1') await this.recordSignIn(sessionId, { id: user.id, role: user.role }, req.log);
    const tokens = await this.sessions.issue(sessionId, user.id, user.role);
    return { ...tokens, user: await this.view(user) };
  }

  /**
   * Records the session's sign-in once, by the server, when the session reaches the level its
   * account needs (after the password, or after the second step): time, the client's IP (as
   * TRUST_PROXY lets it be seen) and user agent of the password step, the method that completed
   * it and the level. The actor is the user with their own role, so a staff member's sign-in is a
   * staff action. A sign-in from a browser and network the account has not used before is mailed.
   */
  async recordSignIn(sessionId: string, user: Actor, log: RequestInfo['log'] = this.log): Promise<void> {
    const session = await this.db
      .updateTable('auth_sessions')
      .set({ login_logged: true })
      .where('id', '=', sessionId)
      .where('login_logged', '=', false)
      .where('recovery', '=', false)
      .returning(['ip_address', 'user_agent', 'aal', 'amr'])
      .executeTakeFirst();
    if (!session) return;
    const seen = await this.db
      .selectFrom('login_history')
      .select(['ip_address', 'user_agent'])
      .where('user_id', '=', user.id)
      .orderBy('timestamp', 'desc')
      .limit(200)
      .execute();
    const [latest] = JSON.parse(session.amr) as AmrEntry[];
    const ip = session.ip_address;
    const userAgent = session.user_agent;
    await this.record(
      user.id,
      { type: 'RecordSignIn', sessionId, ipAddress: ip, userAgent, method: latest?.method ?? 'password', aal: session.aal },
      user,
    );
    if (isNewDevice(seen, { ip, userAgent })) {
      await this.notify(user.id, { kind: 'new-sign-in', at: new Date(), ip, network: networkOf(ip), userAgent }, log);
    }
  }

  /** The level the user's sessions must reach (mfa.ts `requiredAalFor`). */
  private async requiredAal(user: { id: string; active_mfa_method: 'totp' | 'email' | null }): Promise<'aal1' | 'aal2'> {
    const factor = await this.db
      .selectFrom('auth_mfa_factors')
      .select('id')
      .where('user_id', '=', user.id)
      .where('status', '=', 'verified')
      .executeTakeFirst();
    return requiredAalFor(user.active_mfa_method, Boolean(factor));
  }

  async checkPassword(userId: string, password: string): Promise<boolean> {
    const row = await this.db.selectFrom('auth_credentials').select('password_hash').where('user_id', '=', userId).executeTakeFirst();
    return verifyPassword(row?.password_hash ?? null, password);
  }

  /**
   * The password re-check of a signed-in user: wrong passwords count against the user
   * (`reauth:{userId}`), 10 in 15 minutes refuse further checks (429); a right one clears them.
   */
  async confirmPassword(userId: string, password: string): Promise<boolean> {
    const failures = `reauth:${userId}`;
    await countAttempt(this.db, failures);
    if (!(await this.checkPassword(userId, password))) return false;
    await clearFailures(this.db, failures);
    return true;
  }

  /**
   * Sets a new password: clears a staff reset's flag and ends every other session (all of
   * them after a reset-link change, whose session exists only for this).
   */
  async changePassword(
    userId: string,
    newPassword: string,
    ctx: { sessionId: string | null; method: 'self' | 'recovery' | 'forced' | 'staff-reset'; actor: Actor; log?: RequestInfo['log'] },
  ): Promise<void> {
    const owner = await this.findById(userId);
    assertPasswordAllowed(newPassword, owner ? [owner.email, owner.full_name] : []);
    const passwordHash = await hashPassword(newPassword);
    await this.db
      .updateTable('auth_credentials')
      .set({ password_hash: passwordHash, updated_at: new Date() })
      .where('user_id', '=', userId)
      .execute();
    await this.retireResetLinks(userId);
    await this.record(userId, { type: 'RecordPasswordChange', method: ctx.method }, ctx.actor);
    if (ctx.method === 'recovery' || ctx.method === 'staff-reset' || !ctx.sessionId) await this.sessions.revokeAll(userId);
    else await this.sessions.revokeAll(userId, ctx.sessionId);
    // A staff reset is told by its staff notice (record(), staff-notices.ts): one mail, not two.
    if (ctx.method !== 'staff-reset') await this.notify(userId, { kind: 'password-changed', at: new Date() }, ctx.log);
  }

  /** Whether one more link mail of this kind may go to the account this hour (LINK_MAILS_PER_HOUR); counts it. */
  private async mailAllowed(key: string, req: RequestInfo): Promise<boolean> {
    if ((await this.throttle.store.increment(key, 3600_000)) <= LINK_MAILS_PER_HOUR) return true;
    req.log.warn({ key }, 'link mail not sent: too many for this address in an hour');
    return false;
  }

  /**
   * Always answers the same; an existing account gets a single-use link valid one hour, which
   * retires every earlier link (one live reset link per account), at most LINK_MAILS_PER_HOUR an hour.
   */
  async recover(email: string, req: RequestInfo): Promise<void> {
    const user = await this.findByEmail(email);
    if (!user) return;
    if (!(await this.mailAllowed(`reset-mail:${user.id}`, req))) return;
    await this.retireResetLinks(user.id);
    const token = await issueLinkToken(this.db, user.id, 'recovery', RECOVERY_LINK_TTL_MS);
    void sendQuietly(this.mailer, passwordResetMail(user.email, `${this.publicUrl}/update-password#type=recovery&token=${token}`), req.log);
  }

  /** Spends every unused reset link of the account (a newer link, or a new password, replaces them). */
  private async retireResetLinks(userId: string): Promise<void> {
    await this.db
      .updateTable('auth_one_time_tokens')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('kind', '=', 'recovery')
      .where('used_at', 'is', null)
      .execute();
  }

  /** Exchanges a reset link's token for a recovery session that may only set a password. */
  async verifyRecovery(token: string, req: RequestInfo) {
    const row = await this.db
      .selectFrom('auth_one_time_tokens')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .where('kind', '=', 'recovery')
      .executeTakeFirst();
    if (!row || row.used_at) throw authErrors.otpInvalid();
    if (row.expires_at < new Date()) throw authErrors.otpExpired();
    const spent = await this.db
      .updateTable('auth_one_time_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', row.token_hash)
      .where('used_at', 'is', null)
      .returning('user_id')
      .executeTakeFirst();
    if (!spent) throw authErrors.otpInvalid();
    const user = await this.findById(row.user_id);
    if (!user) throw authErrors.otpInvalid();
    if (user.banned_until && new Date(user.banned_until) > new Date()) throw authErrors.banned();
    const sessionId = await this.sessions.create(user.id, { aal: 'aal1', recovery: true, ipAddress: req.ip, userAgent: req.userAgent });
    return { ...(await this.sessions.issue(sessionId, user.id, user.role)), user: await this.view(user) };
  }

  async ban(userId: string, until: Date, actor: Actor): Promise<void> {
    await this.record(userId, { type: 'Ban', until: until.toISOString() }, actor);
    await this.sessions.revokeAll(userId);
  }
}

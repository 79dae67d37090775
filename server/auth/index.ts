import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import type { Config } from '../config.js';
import type { LedgerContext } from '../context.js';
import { resolveSecrets } from '../secrets.js';
import { createMailer, drainMail, type Mailer } from '../mail/mailer.js';
import { createCaptcha, type CaptchaVerifier } from '../captcha/captcha.js';
import { RedisTokenMemory } from '../captcha/token-memory.js';
import { Accounts } from './accounts.js';
import { SecondFactors } from './mfa.js';
import { SignInThrottle } from './failures.js';
import { DatabaseThrottleStore } from './throttle.js';
import { SessionService, type AccessClaims } from './sessions.js';
import { createGuard, type Guard } from './guard.js';

export interface AuthServices {
  accounts: Accounts;
  sessions: SessionService;
  mfa: SecondFactors;
  guard: Guard;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  /** Failed sign-ins by address and client: what a captcha challenge costs the calling client. */
  throttle: SignInThrottle;
  /** 32 bytes for AES-256-GCM (server/secrets.ts `encrypt`/`decrypt`): card-free sensitive fields such as bank account numbers. */
  dataKey: Buffer;
}

/** How long a shutdown waits for e-mails still being sent. */
const MAIL_DRAIN_MS = 10_000;

/** Access tokens whose verification is remembered (about 300 bytes each). */
const VERIFIED_TOKENS_CACHED = 10_000;

/**
 * Sets up sign-in, sessions, second factors, mail and captcha, and the guard that checks every route
 * registered after it; returns them for the routes (server/routes/access/ and every other folder).
 */
export async function registerAuth(app: FastifyInstance, ledger: LedgerContext, config: Config): Promise<AuthServices> {
  const secrets = resolveSecrets(config);
  // Verified tokens are cached (by a hash of the token, until the earlier of its expiry and
  // 10 minutes): a request with a token seen before skips the signature check. A sign-out or
  // ban does not rely on the token: the guard checks the session on every request.
  await app.register(fastifyJwt, {
    secret: secrets.jwtSecret,
    sign: { algorithm: 'HS256' },
    verify: { algorithms: ['HS256'], cache: VERIFIED_TOKENS_CACHED },
  });
  app.decorateRequest('auth', null);
  const db = ledger.database.db;
  const publicUrl = (config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`).replace(
    /\/$/,
    '',
  );
  const mailer = createMailer(config);
  // A shutdown lets the mails already on their way go out (a confirmation link, a code).
  app.addHook('onClose', async () => {
    const left = await drainMail(mailer, MAIL_DRAIN_MS);
    if (left > 0) app.log.warn({ left }, 'e-mails still being sent at shutdown');
  });
  // The captcha's HMAC key is derived from the data key, so no second secret needs managing.
  // With REDIS_URL the provider's tokens are remembered for every instance (a token checked on one is spent on another once).
  const tokenMemory = app.redis ? new RedisTokenMemory(app.redis, `${config.REDIS_KEY_PREFIX}captcha:`) : undefined;
  const captcha = createCaptcha(config, db, createHmac('sha256', secrets.dataKey).update('captcha').digest('hex'), tokenMemory);
  const lifetimes = {
    customer: { idleMs: config.SESSION_IDLE_DAYS * 86_400_000, maxMs: config.SESSION_MAX_DAYS * 86_400_000 },
    staff: { idleMs: config.STAFF_SESSION_IDLE_MINUTES * 60_000, maxMs: config.STAFF_SESSION_MAX_HOURS * 3_600_000 },
  };
  const sessions = new SessionService(
    db,
    (claims, expiresIn) => app.jwt.sign(claims, { expiresIn }),
    config.ACCESS_TOKEN_TTL_SECONDS,
    ledger.database.watch,
    lifetimes,
    secrets.dataKey,
  );
  const throttle = new SignInThrottle(new DatabaseThrottleStore(db), config.RATE_LIMIT_FACTOR);
  const accounts = new Accounts(db, ledger, sessions, mailer, captcha, publicUrl, app.log, throttle);
  const mfa = new SecondFactors(db, accounts, sessions, mailer, secrets.dataKey);
  const guard = createGuard(sessions, (token) => app.jwt.verify<AccessClaims>(token));
  // Every route registered from here on is checked as its `config.auth` says, before its body is read.
  guard.protectRoutes(app);
  return { accounts, sessions, mfa, guard, mailer, captcha, throttle, dataKey: secrets.dataKey };
}

import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Challenge, Payload } from 'altcha-lib/v1/types';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import { LocalTokenMemory, type TokenMemory, type TokenState } from './token-memory.js';

export type CaptchaResult = { ok: true } | { ok: false; error: string };

/**
 * The captcha port (DESIGN.md decision 10). `check` verifies a token without using it up
 * (the `verify-recaptcha` function); `spend` verifies it and uses it up (the sign-up or
 * sign-in that carries it), so one solved captcha admits exactly one such call.
 */
export interface CaptchaVerifier {
  readonly provider: string;
  /** `cost`: the proof of work's size for this client (ALTCHA's maxnumber; see `altchaCostFor`). */
  challenge(cost?: number): Promise<unknown>;
  check(token: string): Promise<CaptchaResult>;
  /** `minCost`: a solution of a cheaper challenge than this is refused (ALTCHA only). */
  spend(token: string, minCost?: number): Promise<CaptchaResult>;
}

/** Short reasons; the client words the message around them. */
export const CaptchaReason = {
  invalid: 'invalid solution',
  expired: 'expired',
  used: 'already used',
  unavailable: 'verification unavailable',
  tooEasy: 'a harder challenge is needed',
} as const;

const ok: CaptchaResult = { ok: true };
const fail = (error: string): CaptchaResult => ({ ok: false, error });

// ------------------------------------------------------------------ ALTCHA (default)

/**
 * The cost of the proof of work: the secret number is drawn from [0, ALTCHA_MAX_NUMBER),
 * so a solver tries half that many SHA-256 hashes on average.
 *
 * Measured with altcha-lib's own solver (`solveChallenge` from altcha-lib/v1: one thread,
 * one WebCrypto digest per try, about 30 tries per ms) in Node 20.20 on a 2-core AMD EPYC
 * server:
 *   maxnumber 1,000,000 (altcha-lib's default), 5 runs: 15.4 s average, 14.4 s median
 *   maxnumber   100,000, 30 runs: 2.2 s average, 2.0 s median, 4.6 s at the 90th percentile
 *   maxnumber    50,000, 50 runs: 0.80 s average, 0.67 s median, 1.6 s at the 90th percentile, 2.6 s worst
 *   maxnumber    20,000, 50 runs: 0.25 s average
 * The widget in a browser spreads the range over several web workers, which offsets a
 * phone core being slower than this one, so 50,000 should take about a second on a phone
 * (an estimate from these figures, not a measurement on a phone).
 */
export const ALTCHA_MAX_NUMBER = 50_000;
/**
 * The cost for a client under suspicion (SUSPICION_THRESHOLD): at least a second of work for a
 * solver with native SHA-256 (Node's `createHash`, the fastest here: about 770,000 tries a
 * second on one core of this 2-core server, so 1,000,000 tries on average take about 1.3 s),
 * and about 30 s for altcha-lib's one-thread solver (the browser widget's workers share it).
 */
export const ALTCHA_SUSPECT_MAX_NUMBER = 2_000_000;
/** The cost stops rising here (about 10 s with the native solver). */
export const ALTCHA_TOP_MAX_NUMBER = 16_000_000;
/** Suspicion (failed sign-ins from the client plus its excess challenge requests) from which the cost is raised. */
export const SUSPICION_THRESHOLD = 3;
/** Each further this much suspicion doubles the cost. */
const SUSPICION_PER_DOUBLING = 5;

/** The ALTCHA cost (maxnumber) for a client's suspicion: the base, then doubling up to the top. */
export function altchaCostFor(suspicion: number): number {
  if (suspicion < SUSPICION_THRESHOLD) return ALTCHA_MAX_NUMBER;
  const doublings = Math.floor((suspicion - SUSPICION_THRESHOLD) / SUSPICION_PER_DOUBLING);
  return Math.min(ALTCHA_SUSPECT_MAX_NUMBER * 2 ** Math.min(doublings, 8), ALTCHA_TOP_MAX_NUMBER);
}

/** A challenge (and so its solution) expires this long after it was issued. */
export const ALTCHA_EXPIRES_MS = 10 * 60_000;
const ALTCHA_ALGORITHM = 'SHA-256';
/** Expired rows are cleared at most this often (on a spend). */
const CLEANUP_INTERVAL_MS = 60_000;

export interface AltchaOptions {
  maxNumber?: number;
  expiresInMs?: number;
  /** The clock (tests). */
  now?: () => Date;
}

interface DecodedSolution {
  payload: Payload;
  expiresAt: Date;
  /** The challenge's maxnumber, carried in the signed salt. */
  cost: number;
}

/**
 * Self-hosted proof of work with altcha-lib (ALTCHA v1 challenges: `{algorithm, challenge,
 * maxnumber, salt, signature}`; the solution is the base64 JSON payload the widget posts).
 * The expiry travels in the salt's parameters (`?expires=…`), covered by the signature. A
 * valid solution verifies again on replay, so a spent one is remembered in
 * `captcha_solutions_used` until its challenge expires.
 */
export class AltchaCaptcha implements CaptchaVerifier {
  readonly provider = 'altcha';
  private readonly maxNumber: number;
  private readonly expiresInMs: number;
  private readonly now: () => Date;
  private lastCleanup = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly hmacKey: string,
    options: AltchaOptions = {},
  ) {
    if (!hmacKey) throw new Error('AltchaCaptcha needs an HMAC key');
    this.maxNumber = options.maxNumber ?? ALTCHA_MAX_NUMBER;
    this.expiresInMs = options.expiresInMs ?? ALTCHA_EXPIRES_MS;
    this.now = options.now ?? (() => new Date());
  }

  async challenge(cost?: number): Promise<Challenge> {
    const maxnumber = Math.max(cost ?? this.maxNumber, this.maxNumber);
    return createChallenge({
      algorithm: ALTCHA_ALGORITHM,
      hmacKey: this.hmacKey,
      maxnumber,
      expires: new Date(this.now().getTime() + this.expiresInMs),
      // In the salt, which the signature covers, so that a spend knows what the solution cost.
      params: { cost: String(maxnumber) },
    });
  }

  async check(token: string): Promise<CaptchaResult> {
    const decoded = await this.verify(token);
    if (!('payload' in decoded)) return decoded;
    const used = await this.db
      .selectFrom('captcha_solutions_used')
      .select('signature')
      .where('signature', '=', decoded.payload.signature)
      .executeTakeFirst();
    return used ? fail(CaptchaReason.used) : ok;
  }

  async spend(token: string, minCost?: number): Promise<CaptchaResult> {
    const decoded = await this.verify(token);
    if (!('payload' in decoded)) return decoded;
    if (minCost !== undefined && decoded.cost < minCost) return fail(CaptchaReason.tooEasy);
    await this.removeExpired();
    // The primary key makes this single use even under concurrent spends: the second
    // insert of one signature waits for the first and then inserts nothing.
    const inserted = await this.db
      .insertInto('captcha_solutions_used')
      .values({ signature: decoded.payload.signature, expires_at: decoded.expiresAt })
      .onConflict((oc) => oc.column('signature').doNothing())
      .returning('signature')
      .executeTakeFirst();
    return inserted ? ok : fail(CaptchaReason.used);
  }

  /** Decodes and verifies a solution (signature, proof of work, expiry), without the used-list. */
  private async verify(token: string): Promise<DecodedSolution | { ok: false; error: string }> {
    const payload = decodePayload(token);
    if (!payload) return { ok: false, error: CaptchaReason.invalid };
    if (!(await verifySolution(payload, this.hmacKey, false))) return { ok: false, error: CaptchaReason.invalid };
    // Our challenges always carry an expiry; the signature covers it.
    const params = extractParams(payload);
    const expires = Number(params.expires);
    if (!Number.isSafeInteger(expires) || expires <= 0) return { ok: false, error: CaptchaReason.invalid };
    const expiresAt = new Date(expires * 1000);
    if (expiresAt.getTime() <= this.now().getTime()) return { ok: false, error: CaptchaReason.expired };
    // Challenges issued before costs were carried count as the base cost.
    const cost = Number(params.cost ?? ALTCHA_MAX_NUMBER);
    return { payload, expiresAt, cost: Number.isSafeInteger(cost) ? cost : 0 };
  }

  private async removeExpired(): Promise<void> {
    const now = this.now();
    if (now.getTime() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = now.getTime();
    try {
      await this.db.deleteFrom('captcha_solutions_used').where('expires_at', '<', now).execute();
    } catch {
      // Housekeeping only: the next spend tries again.
      this.lastCleanup = 0;
    }
  }
}

/** The widget's payload: base64 of `{algorithm, challenge, number, salt, signature}`. */
function decodePayload(token: string): Payload | undefined {
  if (!/^[A-Za-z0-9+/=_-]+$/.test(token)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const p = raw as Record<string, unknown>;
  if (
    p.algorithm !== ALTCHA_ALGORITHM ||
    typeof p.challenge !== 'string' ||
    typeof p.salt !== 'string' ||
    typeof p.signature !== 'string' ||
    typeof p.number !== 'number' ||
    !Number.isSafeInteger(p.number) ||
    p.number < 0 ||
    p.challenge.length > 256 ||
    p.signature.length > 256 ||
    p.salt.length > 1024
  ) {
    return undefined;
  }
  return { algorithm: ALTCHA_ALGORITHM, challenge: p.challenge, number: p.number, salt: p.salt, signature: p.signature };
}

// ------------------------------------------------------------------ reCAPTCHA / Turnstile

export type RemoteProvider = 'recaptcha' | 'turnstile';

export const SITEVERIFY_URLS: Record<RemoteProvider, string> = {
  recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
};

export interface RemoteCaptchaOptions {
  provider: RemoteProvider;
  secret: string;
  /** Default: the provider's siteverify URL. */
  verifyUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** reCAPTCHA v3 answers a score; below this it fails. */
  minScore?: number;
  /** How long a checked token stays usable for one spend (the providers' tokens live 2 to 5 minutes). */
  rememberMs?: number;
  /** Where checked and spent tokens are remembered; default this process's memory. */
  memory?: TokenMemory;
  now?: () => number;
}

/**
 * reCAPTCHA or Turnstile: the provider's widget makes the token and its siteverify endpoint
 * judges it (form POST of `secret` and `response`). The providers accept a token only
 * once, so a token that `check` verified is remembered (in this process, or in Redis for
 * every instance) and `spend` uses that verdict instead of asking again; a spent one is
 * remembered as used.
 */
export class RemoteCaptcha implements CaptchaVerifier {
  readonly provider: RemoteProvider;
  private readonly secret: string;
  private readonly verifyUrl: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly minScore: number;
  private readonly rememberMs: number;
  private readonly memory: TokenMemory;

  constructor(options: RemoteCaptchaOptions) {
    if (!options.secret) throw new Error(`CAPTCHA_SECRET is required for ${options.provider}`);
    this.provider = options.provider;
    this.secret = options.secret;
    this.verifyUrl = options.verifyUrl ?? SITEVERIFY_URLS[options.provider];
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.minScore = options.minScore ?? 0.5;
    this.rememberMs = options.rememberMs ?? 5 * 60_000;
    this.memory = options.memory ?? new LocalTokenMemory(options.now);
  }

  async challenge(): Promise<{ provider: RemoteProvider }> {
    return { provider: this.provider };
  }

  async check(token: string): Promise<CaptchaResult> {
    const key = tokenKey(token);
    const known = await this.recall(key);
    if (known === null) return fail(CaptchaReason.unavailable);
    if (known) return known === 'spent' ? fail(CaptchaReason.used) : ok;
    const result = await this.siteverify(token);
    // Another call may have settled this token meanwhile; its verdict stands (markVerified keeps it).
    if (result.ok) await this.memory.markVerified(key, this.rememberMs).catch(() => {});
    return result;
  }

  async spend(token: string): Promise<CaptchaResult> {
    const key = tokenKey(token);
    const known = await this.recall(key);
    if (known === null) return fail(CaptchaReason.unavailable);
    if (known === 'spent') return fail(CaptchaReason.used);
    if (!known) {
      const result = await this.siteverify(token);
      if (!result.ok) return result;
    }
    try {
      return (await this.memory.spend(key, this.rememberMs)) === 'spent' ? fail(CaptchaReason.used) : ok;
    } catch {
      return fail(CaptchaReason.unavailable);
    }
  }

  /** What is remembered of a token; null when the shared memory cannot be asked (no spend is safe then). */
  private async recall(key: string): Promise<TokenState | undefined | null> {
    return this.memory.recall(key).catch(() => null);
  }

  private async siteverify(token: string): Promise<CaptchaResult> {
    let body: unknown;
    try {
      const response = await this.fetch(this.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ secret: this.secret, response: token }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) return fail(CaptchaReason.unavailable);
      body = await response.json();
    } catch {
      return fail(CaptchaReason.unavailable);
    }
    const answer = (typeof body === 'object' && body !== null ? body : {}) as {
      success?: unknown;
      score?: unknown;
      'error-codes'?: unknown;
    };
    if (answer.success === true) {
      if (typeof answer.score === 'number' && answer.score < this.minScore) return fail('low score');
      return ok;
    }
    const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].filter((c): c is string => typeof c === 'string') : [];
    if (codes.includes('timeout-or-duplicate')) return fail('expired or already used');
    if (codes.some((c) => c.includes('secret') || c === 'bad-request' || c === 'internal-error')) return fail(CaptchaReason.unavailable);
    return fail(CaptchaReason.invalid);
  }
}

const tokenKey = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

// ------------------------------------------------------------------ factory

export function createCaptcha(
  config: Pick<Config, 'CAPTCHA_PROVIDER' | 'CAPTCHA_SECRET'>,
  db: Kysely<DB>,
  hmacKey: string,
  memory?: TokenMemory,
): CaptchaVerifier {
  if (config.CAPTCHA_PROVIDER === 'altcha') return new AltchaCaptcha(db, hmacKey);
  if (!config.CAPTCHA_SECRET) throw new Error(`CAPTCHA_SECRET is required for ${config.CAPTCHA_PROVIDER}`);
  return new RemoteCaptcha({ provider: config.CAPTCHA_PROVIDER, secret: config.CAPTCHA_SECRET, ...(memory ? { memory } : {}) });
}

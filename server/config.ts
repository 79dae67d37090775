import net from 'node:net';
import { z } from 'zod';
import { Decimal } from 'decimal.js';

/** A host name (RFC 1123 labels) or an IP address. */
function isHostOrAddress(value: string): boolean {
  if (net.isIP(value)) return true;
  return value.length <= 253 && value.split('.').every((label) => /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(label));
}

/** A URL that parses and names a host. */
function hasHost(value: string): boolean {
  return URL.canParse(value) && new URL(value).hostname !== '';
}

/** `a@b.c` or `Name <a@b.c>`: what an SMTP server accepts as the sender. */
const MAIL_ADDRESS = /^[^\s@<>"]+@[^\s@<>".]+(\.[^\s@<>".]+)+$/;
function isMailbox(value: string): boolean {
  const named = /^([^<>\r\n]*)<([^<>\s]+)>$/.exec(value.trim());
  return MAIL_ADDRESS.test(named ? named[2]! : value.trim());
}

/** An IP address or an address/prefix block, as proxy-addr understands them. */
function isAddressOrBlock(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  const family = net.isIP(address ?? '');
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: unset, `false` or `0`: the socket's address is the client's; a number N:
 * trust N proxy hops (the Nth address from the right of X-Forwarded-For); a comma-separated
 * list of addresses and CIDR blocks: trust the proxies at those addresses.
 */
const TrustProxy = z.string().transform((value, ctx): false | number | string[] => {
  const v = value.trim();
  if (v === 'false' || v === '0') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops <= 10) return hops;
  } else {
    const blocks = v
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    if (blocks.length && blocks.every(isAddressOrBlock)) return blocks;
  }
  ctx.addIssue({
    code: 'custom',
    message: 'TRUST_PROXY must be false, a hop count (1 to 10) or a comma-separated list of proxy addresses or CIDR blocks',
  });
  return z.NEVER;
});

/** Everything the process reads from its environment, parsed once with clear errors. */
const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().refine(isHostOrAddress, 'HOST must be an IP address or a host name (0.0.0.0 in containers)').default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
      .refine(URL.canParse, 'DATABASE_URL is not a URL (postgres://user:password@host:5432/database)')
      .optional(),
    DATA_DIR: z.string().min(1).default('./var'),
    EVENTSTORE_URL: z
      .string()
      .regex(/^(esdb|esdb\+discover|kurrentdb):\/\//, 'EVENTSTORE_URL must be an esdb:// connection string')
      .optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** How long a command waits for the read tables to show its own events. */
    PROJECTION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
    /** A snapshot of a wallet's (or another long stream's) state every this many events; 0: none (ledger/snapshots/). */
    SNAPSHOT_EVERY: z.coerce.number().int().min(0).max(1_000_000).default(500),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
    /**
     * Prepare each statement once per server connection: for a direct connection to PostgreSQL
     * (or PgBouncer >= 1.21 with max_prepared_statements); off behind an older transaction pooler.
     */
    DB_PREPARED_STATEMENTS: z.enum(['true', 'false']).default('false'),
    /** How long a query waits for a free connection of the pool before the request is answered 503. */
    DB_CHECKOUT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** How far the heap may grow past its live objects before a full collection, in percent; 0: V8's own policy (server/heap.ts). */
    HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(50),
    /** Where links in e-mails point; default http://HOST:PORT. */
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http:// or https:// URL' }).optional(),
    /** Signs access tokens (32+ characters). Outside production a generated one is kept in DATA_DIR. */
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    /** 32 bytes as 64 hex characters: encrypts second-factor secrets and bank account numbers (AES-256-GCM). */
    DATA_ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'DATA_ENCRYPTION_KEY must be 64 hex characters (32 bytes)')
      .optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
    /** smtp:// or smtps:// URL; unset: mail is written to the outbox folder in DATA_DIR. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL')
      .refine(hasHost, 'SMTP_URL must name the mail server (smtp://user:password@smtp.example.com:587)')
      .optional(),
    /** Explicitly keep mail in the outbox folder in production (no SMTP server). */
    MAIL_OUTBOX: z.enum(['true', 'false']).optional(),
    MAIL_FROM: z
      .string()
      .refine(isMailbox, 'MAIL_FROM must be an address (no-reply@example.com) or a name and address (Wallet <no-reply@example.com>)')
      .default('wallet-ledger <no-reply@wallet-ledger.local>'),
    /** Which proxies in front of the app to believe about the client's address (X-Forwarded-For). */
    TRUST_PROXY: TrustProxy.optional(),
    /** redis:// or rediss:// URL: rate limits and captcha memory shared by every instance; unset: each process's memory. */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/[^/]/, 'REDIS_URL must be a redis:// or rediss:// URL')
      .refine(
        (v) => hasHost(v) && /^(\/\d{0,5})?$/.test(new URL(v).pathname),
        'REDIS_URL must be redis://host:6379 or redis://host:6379/N with N a database number',
      )
      .optional(),
    /** Prefix of every key the app writes to Redis, so deployments (or test runs) can share one Redis. */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1 to 64 letters, digits or . : - _')
      .default('wallet-ledger:'),
    /** Bearer token for /metrics and the detail of /readyz; unset: open outside production, closed in production. */
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** /readyz fails when a read model is more than this many events behind the log. */
    READY_MAX_LAG: z.coerce.number().int().min(0).max(1_000_000).default(1_000),
    /** altcha (self-hosted proof of work, the default), recaptcha or turnstile (need CAPTCHA_SECRET). */
    CAPTCHA_PROVIDER: z.enum(['altcha', 'recaptcha', 'turnstile']).default('altcha'),
    CAPTCHA_SECRET: z.string().optional(),
    /** A market-data API answering `{symbol: {price, changePercent24Hr}}`; unset: the simulated feed. */
    PRICE_FEED_URL: z
      .string()
      .regex(/^https?:\/\//, 'PRICE_FEED_URL must be an http:// or https:// URL')
      .optional(),
    /** Multiplies every per-route rate limit (browser test runs sign up many accounts from one address). */
    RATE_LIMIT_FACTOR: z.coerce.number().int().min(1).max(1000).default(1),
    /** In production, `/docs` and `/docs/json` answer only a staff sign-in unless this is true. */
    DOCS_PUBLIC: z.enum(['true', 'false']).default('false'),
    /** A refresh token ends after this many days unused, and this many days after sign-in at most. */
    SESSION_IDLE_DAYS: z.coerce.number().positive().max(365).default(7),
    SESSION_MAX_DAYS: z.coerce.number().positive().max(365).default(30),
    /** The same for staff sessions, shorter. */
    STAFF_SESSION_IDLE_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(30),
    STAFF_SESSION_MAX_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(12),
    /** What one customer's uploads (ticket attachments, KYC documents) may take in all, in MB. */
    UPLOAD_QUOTA_MB: z.coerce.number().positive().max(100_000).default(100),
    /**
     * Create the demo customer and staff on the first start of an empty embedded database.
     * Unset: true outside production, false in production (where true is refused).
     */
    DEMO_USERS: z.enum(['true', 'false']).optional(),
    /** The two-person rule: a staff action above this USD value waits for a second person; 0: every such action. */
    FOUR_EYES_LIMIT_USD: z
      .string()
      .regex(/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/, 'FOUR_EYES_LIMIT_USD must be a number of US dollars, 0 or more (e.g. 1000 or 2500.50)')
      .default('1000'),
    /** How long a request under the two-person rule waits before it expires by itself. */
    FOUR_EYES_EXPIRY_HOURS: z.coerce.number().int().min(1).max(8760).default(72),
    /**
     * The rolling 24-hour sum, per maker and per customer, of staff actions that ran alone: an
     * action that would pass it waits for a second person whatever its size. Unset: 5 x FOUR_EYES_LIMIT_USD.
     */
    FOUR_EYES_DAILY_LIMIT_USD: z
      .string()
      .regex(/^(0|[1-9]\d{0,14})(\.\d{1,2})?$/, 'FOUR_EYES_DAILY_LIMIT_USD must be a number of US dollars, 0 or more (e.g. 5000)')
      .optional(),
    /** Separation of duties: who created a staff account or set its password cannot check its requests for this many days. */
    FOUR_EYES_SEPARATION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    /** A price older than this (seconds) cannot value a staff action alone: the action waits for a second person. */
    PRICE_MAX_AGE_S: z.coerce.number().int().min(1).max(86_400).default(600),
  })
  .superRefine((c, ctx) => {
    // Compared only when both are amounts (a bad one is refused by its own rule above).
    const usd = (v: unknown): v is string => typeof v === 'string' && /^\d+(\.\d+)?$/.test(v);
    if (
      usd(c.FOUR_EYES_DAILY_LIMIT_USD) &&
      usd(c.FOUR_EYES_LIMIT_USD) &&
      new Decimal(c.FOUR_EYES_DAILY_LIMIT_USD).lt(c.FOUR_EYES_LIMIT_USD)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['FOUR_EYES_DAILY_LIMIT_USD'],
        message: `must be at least FOUR_EYES_LIMIT_USD (${c.FOUR_EYES_LIMIT_USD}): a day holds at least one action`,
      });
    }
    if (c.NODE_ENV === 'production' && c.DEMO_USERS === 'true') {
      ctx.addIssue({
        code: 'custom',
        path: ['DEMO_USERS'],
        message: 'true is not allowed in production (demo accounts have known roles and printed passwords)',
      });
    }
    if (c.NODE_ENV === 'production') {
      for (const key of ['JWT_SECRET', 'DATA_ENCRYPTION_KEY', 'PUBLIC_URL'] as const) {
        if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required in production` });
      }
      // Mail written to a local folder in production is mail nobody reads: ask for it by name.
      if (!c.SMTP_URL && c.MAIL_OUTBOX !== 'true') {
        ctx.addIssue({
          code: 'custom',
          path: ['SMTP_URL'],
          message: 'SMTP_URL is required in production (or MAIL_OUTBOX=true to keep mail in DATA_DIR/outbox)',
        });
      }
    }
    if (c.CAPTCHA_PROVIDER !== 'altcha' && !c.CAPTCHA_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['CAPTCHA_SECRET'], message: `CAPTCHA_SECRET is required for ${c.CAPTCHA_PROVIDER}` });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** Demo accounts are made only outside production, and only when DEMO_USERS is not false. */
export function demoUsersWanted(config: Pick<Config, 'NODE_ENV' | 'DEMO_USERS' | 'DATABASE_URL'>): boolean {
  return config.NODE_ENV !== 'production' && !config.DATABASE_URL && config.DEMO_USERS !== 'false';
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    // One line per refused value, naming it (an operator reads this in a container's log).
    const lines = parsed.error.issues.map(
      (i) => `Invalid configuration: ${i.path.join('.') || '(root)'}: ${i.message.replace(/\s+/g, ' ')}`,
    );
    throw new ConfigError(lines.join('\n'));
  }
  const ineffective = settingsWithoutEffect(parsed.data);
  if (ineffective.length) throw new ConfigError(ineffective.map(([name, why]) => `Invalid configuration: ${name}: ${why}`).join('\n'));
  return parsed.data;
}

/**
 * Values each valid alone that together would be silently ignored: refused by name, so that an
 * operator does not believe a setting holds that does not. One entry per check.
 */
function settingsWithoutEffect(c: Config): Array<[string, string]> {
  const refused: Array<[string, string]> = [];
  if (c.DEMO_USERS === 'true' && c.DATABASE_URL) {
    refused.push([
      'DEMO_USERS',
      'true only applies to the embedded database; on PostgreSQL the first staff account comes from `npm run ledger -- create-staff` (docs/operations.md)',
    ]);
  }
  if (c.SESSION_IDLE_DAYS > c.SESSION_MAX_DAYS) {
    refused.push([
      'SESSION_IDLE_DAYS',
      `${c.SESSION_IDLE_DAYS} is longer than SESSION_MAX_DAYS (${c.SESSION_MAX_DAYS}), which would end the session first`,
    ]);
  }
  if (c.STAFF_SESSION_IDLE_MINUTES > c.STAFF_SESSION_MAX_HOURS * 60) {
    refused.push([
      'STAFF_SESSION_IDLE_MINUTES',
      `${c.STAFF_SESSION_IDLE_MINUTES} minutes is longer than STAFF_SESSION_MAX_HOURS (${c.STAFF_SESSION_MAX_HOURS} h), which would end the session first`,
    ]);
  }
  if (c.MAIL_OUTBOX === 'true' && c.SMTP_URL) {
    refused.push([
      'MAIL_OUTBOX',
      'true asks to keep mail in DATA_DIR/outbox, but SMTP_URL is set too and would be used; unset one of them',
    ]);
  }
  return refused;
}

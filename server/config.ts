import { z } from 'zod';

/** Everything the process reads from its environment, parsed once with clear errors. */
const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./var'),
  EVENTSTORE_URL: z
    .string()
    .regex(/^(esdb|esdb\+discover|kurrentdb):\/\//, 'EVENTSTORE_URL must be an esdb:// connection string')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long a command waits for the read tables to show its own events. */
  PROJECTION_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /** How far the heap may grow past its live objects before a full collection, in percent; 0: V8's own policy (server/heap.ts). */
  HEAP_GROWING_PERCENT: z.coerce.number().int().min(0).max(400).default(50),
  /** Where links in e-mails point; default http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** Signs access tokens (32+ characters). Outside production a generated one is kept in DATA_DIR. */
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  /** 32 bytes as 64 hex characters: encrypts second-factor secrets and bank account numbers (AES-256-GCM). */
  DATA_ENCRYPTION_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, 'DATA_ENCRYPTION_KEY must be 64 hex characters (32 bytes)').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  /** smtp:// or smtps:// URL; unset: mail is written to the outbox folder in DATA_DIR. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'SMTP_URL must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().default('wallet-ledger <no-reply@wallet-ledger.local>'),
  /** altcha (self-hosted proof of work, the default), recaptcha or turnstile (need CAPTCHA_SECRET). */
  CAPTCHA_PROVIDER: z.enum(['altcha', 'recaptcha', 'turnstile']).default('altcha'),
  CAPTCHA_SECRET: z.string().optional(),
  /** A market-data API answering `{symbol: {price, changePercent24Hr}}`; unset: the simulated feed. */
  PRICE_FEED_URL: z.string().regex(/^https?:\/\//, 'PRICE_FEED_URL must be an http:// or https:// URL').optional(),
  /** Multiplies every per-route rate limit (browser test runs sign up many accounts from one address). */
  RATE_LIMIT_FACTOR: z.coerce.number().int().min(1).max(1000).default(1),
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
}).superRefine((c, ctx) => {
  if (c.NODE_ENV === 'production' && c.DEMO_USERS === 'true') {
    ctx.addIssue({ code: 'custom', path: ['DEMO_USERS'], message: 'true is not allowed in production (demo accounts have known roles and printed passwords)' });
  }
  if (c.NODE_ENV === 'production') {
    for (const key of ['JWT_SECRET', 'DATA_ENCRYPTION_KEY'] as const) {
      if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required in production` });
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
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

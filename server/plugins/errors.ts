import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../errors.js';
import { AuthError } from '../auth/errors.js';
import { UserError } from '../../ledger/user/user.js';
import { WalletError } from '../../ledger/wallet/wallet.js';
import { EventStoreUnavailableError, WrongExpectedVersionError } from '../../ledger/event-store/port.js';

const walletStatus: Record<WalletError['code'], number> = {
  insufficient_balance: 400,
  invalid_amount: 400,
  not_found: 404,
  invalid_state: 409,
  duplicate: 409,
  forbidden: 403,
};

/**
 * node-postgres' own words for a connection that closed under it (a failover, a router that
 * cut it): they come without a code.
 */
const CONNECTION_LOST =
  /^(Connection terminated( unexpectedly)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable)$/;

/**
 * The database did not answer: refused or lost connections (node's socket codes, or
 * node-postgres' messages), PostgreSQL's "connection exception" and "operator intervention"
 * classes (08, 57P), too many connections (53300), and a read-only transaction (25006: the
 * server reached is a standby, during a failover). Nothing was committed, or, for a commit cut
 * off, the same request with its Idempotency-Key answers as the first would have.
 */
function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof Error && CONNECTION_LOST.test(err.message)) return true;
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return false;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', '53300', '25006'].includes(code) || code.startsWith('08') || code.startsWith('57P')
  );
}

/**
 * Every failure answers `{ error: "text" }` (the spec's function error shape). A client's
 * mistake is a 4xx that says what was wrong; only our own faults are 500s, logged, and
 * they never show internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field =
        first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') || (first?.params as { missingProperty?: string })?.missingProperty;
      const message = first?.message ?? 'Invalid request.';
      return reply.status(400).send({ error: field ? `${field}: ${message}` : message });
    }
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ error: err.message });
    if (err instanceof AuthError) return reply.status(err.statusCode).send({ error: err.message, code: err.code });
    if (err instanceof UserError)
      return reply.status(err.code === 'not_found' ? 404 : err.code === 'exists' ? 409 : 400).send({ error: err.message });
    if (err instanceof WalletError) return reply.status(walletStatus[err.code]).send({ error: err.message });
    if (err instanceof WrongExpectedVersionError) {
      return reply.status(409).send({ error: 'This changed at the same time elsewhere. Please try again.' });
    }
    if (err instanceof EventStoreUnavailableError || isDatabaseUnavailable(err)) {
      // Nothing was decided; /readyz names the outage. Logged once per request, as a warning.
      request.log.warn({ err: (err as Error).message }, 'event store or database not answering');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ error: 'The service is temporarily unavailable. Please try again in a moment.' });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ error: 'An unexpected error occurred.' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: bad JSON, too large, unsupported media type, rate limits.
      return reply.status(status).send({ error: err.message || 'Bad request.' });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'An unexpected error occurred.' });
  });
}

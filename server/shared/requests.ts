import type { FastifyRequest } from 'fastify';

/** The request's Idempotency-Key header, when it is a usable one (1 to 200 characters). */
export const idempotencyKey = (request: FastifyRequest): string | undefined => {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : undefined;
};

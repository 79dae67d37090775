import { z } from 'zod';
import type { FastifyRequest } from 'fastify';

/** An amount as a request may carry it: decimal text (preferred) or a JSON number; `requestAmount` checks it. */
export const amountInput = z.union([z.string().max(64), z.number()]);

/** The request's Idempotency-Key header, when it is a usable one (1 to 200 characters). */
export const idempotencyKey = (request: FastifyRequest): string | undefined => {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : undefined;
};

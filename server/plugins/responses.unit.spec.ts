import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { z } from 'zod';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answerSerializer, declareRefusals } from './responses.js';
import { registerErrorHandling } from './errors.js';
import { forbidden } from '../errors.js';

async function appWith(strict: boolean) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(strict));
  registerErrorHandling(app);
  declareRefusals(app);
  const routes: FastifyPluginAsyncZod = async (r) => {
    r.get(
      '/answer',
      { schema: { response: { 200: z.object({ shown: z.string() }) } } },
      async () => ({ shown: 'yes', secret: 'no' }) as { shown: string },
    );
    r.get('/refusal', { schema: { response: { 200: z.object({ shown: z.string() }) } } }, async () => {
      throw forbidden('No.');
    });
  };
  await app.register(routes);
  return app;
}

describe('declared answers', () => {
  it('refuses, outside production, an answer with a field its schema does not declare', async () => {
    const app = await appWith(true);
    const res = await app.inject({ method: 'GET', url: '/answer' });
    expect([res.statusCode, res.json()]).toEqual([500, { error: 'An unexpected error occurred.' }]);
  });

  it('writes, in production, only what the schema declares', async () => {
    const app = await appWith(false);
    const res = await app.inject({ method: 'GET', url: '/answer' });
    expect([res.statusCode, res.json()]).toEqual([200, { shown: 'yes' }]);
  });

  it('writes a refusal in the error shape of every route', async () => {
    const app = await appWith(true);
    const res = await app.inject({ method: 'GET', url: '/refusal' });
    expect([res.statusCode, res.json()]).toEqual([403, { error: 'No.' }]);
  });
});

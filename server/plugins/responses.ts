import type { FastifyInstance, RouteOptions } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { createJsonSchemaTransform, ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorAnswer } from '../../ledger/contract/common.js';

type ResponseSchemas = Record<string, unknown>;

/**
 * Every route that declares its answers also answers its refusals in the one error shape
 * (ledger/contract/common.ts `ErrorAnswer`): added here to every route that does not name its own `4xx`.
 */
export function declareRefusals(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as { response?: ResponseSchemas; hide?: boolean } | undefined;
    if (!schema?.response) return;
    if (!('4xx' in schema.response)) schema.response = { ...schema.response, '4xx': ErrorAnswer };
  });
}

/**
 * The OpenAPI transform: a time the server passes on as a Date (written as ISO text) is
 * described as the text it becomes.
 */
export const openApiTransform = createJsonSchemaTransform({
  zodToJsonConfig: {
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if ((zodSchema as { _zod: { def: { type: string } } })._zod.def.type === 'date')
        Object.assign(jsonSchema, { type: 'string', format: 'date-time' });
    },
  },
});

/**
 * The answers' serializer: the declared schema writes the answer (fastify-type-provider-zod).
 * With `strict` (every environment but production) an answer that its schema would change
 * (a field the schema does not name, which would be dropped) is refused as a mismatch, so
 * the tests keep every declared answer whole; production writes what the schema allows.
 */
export function answerSerializer(strict: boolean): typeof serializerCompiler {
  if (!strict) return serializerCompiler;
  return (route) => {
    const write = serializerCompiler(route);
    return (data) => {
      const text = write(data);
      if (!isDeepStrictEqual(JSON.parse(text), JSON.parse(JSON.stringify(data)))) {
        throw new ResponseSerializationError(route.method, route.url, {
          cause: new z.ZodError([{ code: 'custom', path: [], message: 'the answer has fields its schema does not declare', input: data }]),
        });
      }
      return text;
    };
  };
}

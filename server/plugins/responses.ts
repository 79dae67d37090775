import type { FastifyInstance, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
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
      if ((zodSchema as { _zod: { def: { type: string } } })._zod.def.type === 'date') Object.assign(jsonSchema, { type: 'string', format: 'date-time' });
    },
  },
});

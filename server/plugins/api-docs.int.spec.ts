import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/support/test-app.js';

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };

describe('the OpenAPI description', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('gives every operation the schema of its answer and of its refusals', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const missing: string[] = [];
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const described = (prefix: RegExp) =>
          Object.entries(op.responses ?? {}).some(
            ([status, answer]) =>
              prefix.test(status) && Object.values(answer.content ?? {}).some((c) => Object.keys(c.schema ?? {}).length > 0),
          );
        if (!described(/^[23]/) || !described(/^4/)) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(operations).toBeGreaterThan(90);
    expect(missing).toEqual([]);
  });

  it('describes a refusal as the error shape the client reads', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const refusal =
      doc.paths['/functions/v1/crypto-prices'].get.responses['4XX'] ?? doc.paths['/functions/v1/crypto-prices'].get.responses['4xx'];
    expect(refusal.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'string' } },
    });
  });

  it('describes a file answer as bytes and a time the server passes on as a date-time', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const document = doc.paths['/api/v1/kyc-documents'].get.responses['200'].content;
    expect(Object.values(document)[0]).toMatchObject({ schema: { type: 'string', format: 'binary' } });
    const details = doc.paths['/functions/v1/get-user-profile-details'].post.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(details.properties.dob)).toContain('date-time');
  });
});

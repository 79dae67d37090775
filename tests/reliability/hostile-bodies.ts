import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';
import type { RouteEntry } from '../../server/plugins/security.js';
import { setAt, dropAt } from '../support/json-paths.js';

/*
 * The bodies hostile-input.int.spec.ts sends to a JSON endpoint, generated from its body schema:
 * a smallest valid body, then wrong types, hostile strings, prototype keys and missing fields.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  items?: JsonSchema;
};

/** The route's body schema as JSON Schema (what the client is told), for walking its fields. */
export function jsonSchemaOf(route: RouteEntry): JsonSchema | null {
  const body = route.schema?.body;
  if (!body || typeof (body as { safeParse?: unknown }).safeParse !== 'function') return null;
  return z.toJSONSchema(body as z.ZodType, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
}

/** A smallest value that the schema accepts (the base that the mutations start from). */
export function skeleton(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.oneOf ?? s.anyOf;
  if (alt) return skeleton(alt[0]!);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, skeleton(s.properties?.[k] ?? {})]));
    case 'string':
      return s.format === 'uuid' ? randomUUID() : s.format === 'email' ? 'someone@example.com' : 'a'.repeat(Math.max(1, s.minLength ?? 1));
    case 'number':
    case 'integer':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      return 'a';
  }
}

/** Every field path the schema names (top level and one level down), with its schema. */
function fieldsOf(s: JsonSchema, prefix: string[] = [], depth = 0): { path: string[]; schema: JsonSchema }[] {
  const objects = [s, ...(s.oneOf ?? []), ...(s.anyOf ?? [])].filter((x) => x.properties);
  const out: { path: string[]; schema: JsonSchema }[] = [];
  for (const o of objects) {
    for (const [k, v] of Object.entries(o.properties!)) {
      out.push({ path: [...prefix, k], schema: v });
      if (depth < 1) out.push(...fieldsOf(v, [...prefix, k], depth + 1));
    }
  }
  return out;
}

const typesOf = (s: JsonSchema): Set<string> => {
  const alt = s.oneOf ?? s.anyOf;
  if (alt) return new Set(alt.flatMap((a) => [...typesOf(a)]));
  return new Set([s.type ?? 'unknown'].flat());
};

/** Values that are certainly wrong for a field of these types. */
function wrongFor(types: Set<string>): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [fc.constant(null), fc.constant([]), fc.constant({ nested: { deeper: 1 } })];
  if (!types.has('number') && !types.has('integer')) options.push(fc.oneof(fc.integer(), fc.double({ noNaN: true })));
  if (!types.has('boolean')) options.push(fc.boolean());
  if (!types.has('string')) options.push(fc.string());
  return fc.oneof(...options);
}

/** Hostile but type-correct strings: huge, amounts at the edges, unicode, control characters. */
const hostileString = fc.oneof(
  fc.constant('x'.repeat(200_000)),
  fc.constantFrom(
    '-1',
    '-0.000000000000000001',
    '0',
    '0.' + '1'.repeat(30),
    '1.' + '0'.repeat(29) + '1',
    '1e400',
    '1e-30',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    ' 1 ',
    '1,5',
    '99999999999999999999999999999999999999',
  ),
  fc.constantFrom(
    '\u0000',
    '\u202e\u0631\u0644',
    '𝕳𝖊𝖑𝖑𝖔 🧨',
    '../../../etc/passwd',
    '<script>alert(1)</script>',
    "'; drop table events; --",
    '\ud800',
    'a\r\nX-Injected: 1',
  ),
  fc.string({ unit: 'binary', maxLength: 300 }),
);

const pollution = fc.constantFrom(
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"__proto__":{"isAdmin":true,"role":"ADMIN"}}',
);

export interface Mutation {
  label: string;
  /** The raw JSON text to send. */
  payload: string;
  /** Certainly invalid: must be refused (a 4xx), not merely survived. */
  mustRefuse: boolean;
}

export function mutations(base: unknown, schema: JsonSchema): fc.Arbitrary<Mutation> {
  const fields = fieldsOf(schema);
  const required = new Set(schema.required ?? []);
  const arbs: fc.Arbitrary<Mutation>[] = [
    fc
      .constantFrom('[]', '"text"', '42', 'null', '{', '{"a":', JSON.stringify(base) + 'x')
      .map((payload) => ({ label: `root ${payload.slice(0, 20)}`, payload, mustRefuse: true })),
    pollution.map((extra) => ({
      label: 'prototype keys',
      payload: JSON.stringify(base).replace(/^\{/, extra.slice(0, -1) + (JSON.stringify(base) === '{}' ? '' : ',')),
      mustRefuse: false,
    })),
  ];
  if (fields.length > 0) {
    const field = fc.constantFrom(...fields);
    arbs.push(
      fc.tuple(field, fc.constant(null)).chain(([f]) =>
        wrongFor(typesOf(f.schema)).map((v) => ({
          label: `${f.path.join('.')} wrong type ${JSON.stringify(v)?.slice(0, 30)}`,
          payload: JSON.stringify(setAt(base, f.path, v)),
          mustRefuse: f.path.length === 1,
        })),
      ),
      fc.tuple(field, hostileString).map(([f, v]) => ({
        label: `${f.path.join('.')} = ${JSON.stringify(v).slice(0, 40)}`,
        payload: JSON.stringify(setAt(base, f.path, v)),
        // A 200,000-character string exceeds every limit the API sets.
        mustRefuse: v.length > 100_000,
      })),
    );
    const req = fields.filter((f) => f.path.length === 1 && required.has(f.path[0]!));
    if (req.length > 0) {
      arbs.push(
        fc
          .constantFrom(...req)
          .map((f) => ({ label: `without ${f.path[0]}`, payload: JSON.stringify(dropAt(base, f.path)), mustRefuse: true })),
      );
    }
  }
  return fc.oneof(...arbs);
}

/** A NUL and a lone surrogate in every string field: PostgreSQL stores neither, so each must be a 400. */
export function unstorableExamples(base: unknown, schema: JsonSchema): [Mutation][] {
  return fieldsOf(schema)
    .filter((f) => typesOf(f.schema).has('string') && f.schema.enum === undefined && f.schema.const === undefined)
    .flatMap((f) =>
      ['a\u0000b', 'a\ud800b'].map((v): [Mutation] => [
        { label: `${f.path.join('.')} = ${JSON.stringify(v)}`, payload: JSON.stringify(setAt(base, f.path, v)), mustRefuse: true },
      ]),
    );
}

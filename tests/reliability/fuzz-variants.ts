import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { z } from 'zod';
import type { RouteEntry } from '../../server/plugins/security.js';
import { getAt, setAt, dropAt } from '../support/json-paths.js';
import { anyHostile, aroundValid, show, stringValue, toJsonText } from './fuzz-values.js';

/* The malformed variations of one route's sample request that the route fuzz (route-fuzz.int.spec.ts) sends. */

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

const schemaOf = (s: unknown): JsonSchema | null => {
  if (!s || typeof (s as { safeParse?: unknown }).safeParse !== 'function') return null;
  try {
    return z.toJSONSchema(s as z.ZodType, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
  } catch {
    return null;
  }
};

/** Field paths (two levels) named by the sample and by the schema. */
function fieldPaths(sample: unknown, schema: JsonSchema | null): string[][] {
  const out = new Map<string, string[]>();
  const walk = (v: unknown, prefix: string[], depth: number) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return;
    for (const [k, inner] of Object.entries(v)) {
      out.set([...prefix, k].join('.'), [...prefix, k]);
      if (depth < 1) walk(inner, [...prefix, k], depth + 1);
    }
  };
  walk(sample, [], 0);
  const walkSchema = (s: JsonSchema, prefix: string[], depth: number) => {
    for (const o of [s, ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
      for (const [k, inner] of Object.entries(o.properties ?? {})) {
        out.set([...prefix, k].join('.'), [...prefix, k]);
        if (depth < 1) walkSchema(inner, [...prefix, k], depth + 1);
      }
    }
  };
  if (schema) walkSchema(schema, [], 0);
  return [...out.values()];
}

/** One request to send. */
export interface Variant {
  label: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  /** Headers set over the caller's (a broken token, odd idempotency keys). */
  headers?: Record<string, string>;
}

const enc = encodeURIComponent;
const queryText = (q: [string, string][]) => q.map(([k, v]) => (v === '\u0000novalue' ? enc(k) : `${enc(k)}=${enc(v)}`)).join('&');
const withQuery = (path: string, q: string) => (q ? `${path}?${q}` : path);

export function variants(
  route: RouteEntry,
  sample: { url: string; query?: Record<string, string>; body?: unknown },
): fc.Arbitrary<Variant> {
  const hasBody = !['GET', 'DELETE'].includes(route.method) || sample.body !== undefined;
  const baseBody = sample.body ?? (hasBody ? {} : undefined);
  const baseQuery = Object.entries(sample.query ?? {});
  const baseQueryText = queryText(baseQuery);
  const bodyText = baseBody === undefined ? undefined : toJsonText(baseBody);
  const json = 'application/json';
  const at = (
    payload: string | undefined,
    label: string,
    url = withQuery(sample.url, baseQueryText),
    contentType: string | undefined = payload === undefined ? undefined : json,
  ): Variant => ({
    label,
    url,
    payload,
    contentType,
  });
  const arbs: fc.Arbitrary<Variant>[] = [];

  // Bodies that are not the JSON object the route reads, and wrong content types.
  arbs.push(
    fc
      .constantFrom<[string | undefined, string | undefined]>(
        ['[]', json],
        ['"text"', json],
        ['42', json],
        ['null', json],
        ['-0', json],
        ['1e400', json],
        ['{', json],
        ['', json],
        ['{"a":1}{"b":2}', json],
        ['\ufeff{}', json],
        [bodyText ?? '{}', 'text/plain'],
        [bodyText ?? '{}', 'application/json; charset=utf-16'],
        [bodyText ?? '{}', 'application/x-www-form-urlencoded'],
        ['a=1&a=2&b[]=3', 'application/x-www-form-urlencoded'],
        ['<a>1</a>', 'application/xml'],
        [bodyText ?? '{}', 'multipart/form-data'],
        ['--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', 'multipart/form-data; boundary=x'],
        [bodyText ?? '{}', 'application/vnd.api+json'],
        [bodyText ?? '{}', 'application/json, text/plain'],
        [bodyText ?? '{}', ';;;'],
        ['\u0000\u0001\u0002', 'application/octet-stream'],
      )
      .map(([payload, ct]) => at(payload, `body ${show(payload ?? '')} as ${ct}`, undefined, ct)),
  );

  // Body fields: wrong types, edge values, missing, extras.
  if (baseBody !== undefined) {
    const fields = fieldPaths(baseBody, schemaOf(route.schema?.body));
    if (fields.length > 0) {
      const field = fc.constantFrom(...fields);
      arbs.push(
        fc.tuple(field, anyHostile).map(([f, v]) => at(toJsonText(setAt(baseBody, f, v)), `body.${f.join('.')} = ${show(v)}`)),
        field.chain((f) =>
          aroundValid(getAt(baseBody, f)).map((v) => at(toJsonText(setAt(baseBody, f, v)), `body.${f.join('.')} = ${show(v)}`)),
        ),
        field.map((f) => at(toJsonText(dropAt(baseBody, f)), `body without ${f.join('.')}`)),
        fc
          .tuple(field, field, anyHostile, anyHostile)
          .map(([f, g, v, u]) =>
            at(toJsonText(setAt(setAt(baseBody, f, v), g, u)), `body.${f.join('.')} = ${show(v)}, body.${g.join('.')} = ${show(u)}`),
          ),
      );
    }
    arbs.push(
      fc
        .tuple(fc.constantFrom('extra', 'role', 'isAdmin', 'id', 'user_id', 'status', 'balance', '', '\u200b', 'a'.repeat(300)), anyHostile)
        .map(([k, v]) => at(toJsonText({ ...(baseBody as object), [k]: v }), `body extra ${show(k)} = ${show(v)}`)),
      fc.constant(at(toJsonText(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]))), 'body with 300 unknown keys')),
    );
  }

  // Path parameters: not uuids, unknown uuids, odd text.
  const pattern = route.url.split('/');
  const actual = sample.url.split('/');
  const paramAt = pattern.map((seg, i) => (seg.startsWith(':') || seg === '*' ? i : -1)).filter((i) => i >= 0 && i < actual.length);
  if (paramAt.length > 0) {
    const badSegment = fc.oneof(
      fc.constantFrom(
        'not-a-uuid',
        '0',
        '-1',
        '1e400',
        'null',
        'undefined',
        '00000000-0000-0000-0000-000000000000',
        'ffffffff-ffff-ffff-ffff-ffffffffffff',
        '%20',
        '%E2%80%8F',
        '%F0%9F%A7%A8',
        '..',
        '%2e%2e',
        'a'.repeat(3000),
      ),
      fc.constant(null).map(() => randomUUID()),
      fc.constant(null).map(() => randomUUID().toUpperCase()),
      fc.constant(null).map(() => `${randomUUID()}%E2%80%8B`),
      fc.constant(null).map(() => randomUUID().replace(/-/g, '')),
      fc.constant(null).map(() => `{${randomUUID()}}`),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(enc),
    );
    arbs.push(
      fc.tuple(fc.constantFrom(...paramAt), badSegment).map(([i, seg]) => {
        const parts = [...actual];
        parts[i] = seg;
        return at(bodyText, `path ${show(seg)} at ${pattern[i]}`, withQuery(parts.join('/'), baseQueryText));
      }),
    );
  }

  // Query strings: repeated keys, brackets, hostile values, missing and extra keys.
  const queryKeys = [...new Set([...baseQuery.map(([k]) => k), ...Object.keys(schemaOf(route.schema?.querystring)?.properties ?? {})])];
  const keys = queryKeys.length > 0 ? queryKeys : ['q'];
  const path = sample.url;
  arbs.push(
    fc
      .tuple(fc.constantFrom(...keys), anyHostile, anyHostile)
      .chain(([k, v, u]) =>
        fc.constantFrom<[string, string]>(
          [withQuery(path, queryText([...baseQuery, [k, stringValue(v)]])), `query ${k} repeated with ${show(v)}`],
          [
            withQuery(path, queryText([...baseQuery.filter(([x]) => x !== k), [k, stringValue(v)], [k, stringValue(u)]])),
            `query ${k}=${show(v)}&${k}=${show(u)}`,
          ],
          [withQuery(path, queryText([...baseQuery.filter(([x]) => x !== k), [k, stringValue(v)]])), `query ${k}=${show(v)}`],
          [
            withQuery(path, queryText([...baseQuery.filter(([x]) => x !== k), [`${k}[]`, stringValue(v)], [`${k}[]`, 'x']])),
            `query ${k}[]=${show(v)}`,
          ],
          [withQuery(path, queryText([...baseQuery.filter(([x]) => x !== k), [`${k}[a]`, stringValue(v)]])), `query ${k}[a]=${show(v)}`],
          [withQuery(path, queryText([...baseQuery.filter(([x]) => x !== k), [k, '\u0000novalue']])), `query ${k} without a value`],
          [withQuery(path, queryText(baseQuery.filter(([x]) => x !== k))), `query without ${k}`],
          [
            withQuery(path, `${baseQueryText}${baseQueryText ? '&' : ''}${enc(k)}=%zz&%E0%A4%A=1`),
            `query ${k} with broken percent-encoding`,
          ],
          [
            withQuery(
              path,
              `${baseQueryText}${baseQueryText ? '&' : ''}${Array.from({ length: 200 }, (_, i) => `${enc(k)}=${i}`).join('&')}`,
            ),
            `query ${k} 200 times`,
          ],
          [
            withQuery(path, queryText([...baseQuery, ['extra', stringValue(v)], ['__proto__', 'x'], ['constructor[prototype][x]', '1']])),
            `query extra keys ${show(v)}`,
          ],
        ),
      )
      .map(([url, label]) => at(bodyText, label, url)),
  );

  // Headers: broken credentials, odd idempotency keys (one key reused with different bodies).
  const hostileBody =
    baseBody === undefined ? fc.constant(bodyText) : anyHostile.map((v) => toJsonText({ ...(baseBody as object), amount: v }));
  arbs.push(
    fc
      .tuple(
        fc.constantFrom<Record<string, string>>(
          { authorization: 'Bearer ' + 'a'.repeat(5000) },
          { authorization: 'Bearer' },
          { authorization: 'Bearer a.b.c' },
          { authorization: 'Basic dXNlcjpwYXNz' },
          { authorization: 'Bearer \xff\xfe' },
          { 'idempotency-key': 'fuzz-reused-key' },
          { 'idempotency-key': 'k'.repeat(201) },
          { 'idempotency-key': '\xff\xfe\xe9' },
          { 'idempotency-key': ' ' },
          { 'x-forwarded-for': 'not-an-ip, ::1, 999.999.1.1' },
          { accept: 'application/xml' },
        ),
        hostileBody,
      )
      .map(([headers, payload]) => ({ ...at(payload, `headers ${show(headers).slice(0, 80)} body ${show(payload ?? '')}`), headers })),
  );

  return fc.oneof(...arbs);
}

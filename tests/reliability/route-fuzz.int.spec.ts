import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import type { InjectOptions } from 'fastify';
import { createTestApp, signIn, type TestApp } from '../support/test-app.js';
import { buildWorld, type Ids, type Role, type World } from './world.js';
import { ROUTE_POLICY, type RoutePolicy } from './route-policy.js';
import type { RouteEntry } from '../../server/plugins/security.js';
import { getAt, setAt, dropAt } from '../support/json-paths.js';

/**
 * Every route in route-policy.ts, called with generated malformed variations of its sample
 * request (wrong JSON types, odd numbers and strings, missing and extra fields, bad path
 * params, repeated query keys, non-JSON bodies) by the callers it concerns: no answer may be
 * a 5xx. hostile-input.int.spec.ts checks the finer contract (a message, nothing written).
 * FUZZ_RUNS and FUZZ_SEED search longer or elsewhere (FUZZ_RUNS=300 takes about two minutes);
 * FUZZ_STATUSES=1 prints the answers per route and caller, to see how deep the samples reach.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

/** JSON text put into a body as is (numbers that JSON.stringify cannot write). */
class Raw {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

const toJsonText = (value: unknown): string => {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
};

const show = (v: unknown): string => {
  const s = v instanceof Raw ? v.text : typeof v === 'string' ? JSON.stringify(v) : toJsonText(v);
  return s.length > 60 ? `${s.slice(0, 57)}...(${s.length})` : s;
};

const unicodeEdges = [
  '\u200f\u0645\u0631\u062d\u0628\u0627', // RTL mark + Arabic
  '\u202eevil\u202c',
  'a\u200bb\u200c\u200d',
  '\ufeffBOM',
  '\u{1F469}\u200d\u{1F469}\u200d\u{1F467}\u200d\u{1F466}',
  '\u{1F9E8}\u{1F4B8}',
  'e\u0301\u0301\u0301\u0301\u0301',
  'Z\u0334\u0321\u032a\u035a\u0345',
  '\u3000',
  '\u2028\u2029',
  '\u00a0 \t\n',
  '\uffff\ufffe',
  'ｆｕｌｌｗｉｄｔｈ１２３',
];

const numberish = [
  '1e400',
  '-1e400',
  '1e-400',
  'NaN',
  '-NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '1_000',
  ' 1 ',
  '1,5',
  '١٢٣',
  '0.',
  '.5',
  '+1',
  '--1',
  '1e',
  '9'.repeat(80),
  '0.' + '0'.repeat(60) + '1',
  // At the edges of numeric(38, 18): 19, 20 and 21 digits before the point, 18 and 19 after.
  '9'.repeat(19),
  '9'.repeat(20),
  '9'.repeat(21),
  '1' + '0'.repeat(19),
  '9'.repeat(19) + '.' + '9'.repeat(18),
  '0.' + '0'.repeat(17) + '1',
  '0.' + '0'.repeat(18) + '1',
  '-' + '9'.repeat(20),
  '2147483648',
  '9223372036854775808',
];

/** A value of any JSON type, biased to the edges. */
const anyHostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER + 2,
    1e308,
    -1e308,
    5e-324,
    [],
    {},
    [null],
    [[]],
    { $gt: '' },
    { nested: { deeper: [1] } },
  ),
  fc.constantFrom(
    new Raw('['.repeat(3000) + ']'.repeat(3000)),
    new Raw('{"a":'.repeat(2000) + '{"__proto__":{"x":1}}' + '}'.repeat(2000)),
    new Raw('{"a":1,"a":[2],"a":{"b":3}}'),
    new Raw(JSON.stringify(Array.from({ length: 20_000 }, (_, i) => (i % 2 ? 'a' : 1)))),
  ),
  fc.constantFrom(
    new Raw('-0'),
    new Raw('1e400'),
    new Raw('-1e400'),
    new Raw('1e-400'),
    new Raw('123456789012345678901234567890'),
    new Raw('0.' + '1'.repeat(400)),
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...numberish),
  fc.constantFrom(...unicodeEdges),
  fc.integer({ min: 256, max: 5000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 50, max: 1500 }).map((n) => '\u{1F9E8}'.repeat(n)),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'grapheme-composite', maxLength: 20 }),
  fc.constant(randomUUID()),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
);

/** Variations of a field's valid value: wrapped, decorated, shifted type. */
const aroundValid = (valid: unknown): fc.Arbitrary<unknown> => {
  const options: fc.Arbitrary<unknown>[] = [fc.constant([valid]), fc.constant({ value: valid })];
  if (typeof valid === 'string') {
    options.push(
      fc.constantFrom(...unicodeEdges).map((u) => valid + u),
      fc.constantFrom(...unicodeEdges).map((u) => u + valid),
      fc.constantFrom(
        valid.toUpperCase(),
        ` ${valid} `,
        valid + valid,
        valid.slice(0, Math.max(0, valid.length - 1)),
        valid.repeat(Math.ceil(3000 / Math.max(1, valid.length))),
      ),
    );
    if (valid !== '' && !Number.isNaN(Number(valid)))
      options.push(
        fc.constantFrom(...numberish),
        fc.constantFrom<unknown>(Number(valid), -Number(valid), `-${valid}`, `${valid}e400`, new Raw(`${valid}e400`)),
      );
  }
  if (typeof valid === 'number')
    options.push(
      fc.constantFrom(...numberish),
      fc.constantFrom<unknown>(
        1e20,
        1e21,
        Number('99999999999999999999'),
        String(valid),
        -valid,
        valid + 0.5,
        new Raw('-0'),
        new Raw('1e400'),
        2 ** 31,
        2 ** 53 + 1,
        -(2 ** 31) - 1,
      ),
    );
  if (typeof valid === 'boolean') options.push(fc.constantFrom<unknown>(String(valid), valid ? 1 : 0, 'yes'));
  return fc.oneof(...options);
};

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
interface Variant {
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

const stringValue = (v: unknown): string => (v instanceof Raw ? v.text : typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

function variants(route: RouteEntry, sample: { url: string; query?: Record<string, string>; body?: unknown }): fc.Arbitrary<Variant> {
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

/** Handmade broken multipart bodies for the upload routes (hostile-input covers well-formed but hostile parts). */
const MULTIPART_CASES: { label: string; payload: string; contentType: string }[] = [
  { label: 'multipart without a boundary', payload: '--x\r\n\r\n', contentType: 'multipart/form-data' },
  {
    label: 'multipart with a wrong boundary',
    payload: '--y\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc\r\n--y--\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  {
    label: 'multipart cut short',
    payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    contentType: 'multipart/form-data; boundary=x',
  },
  {
    label: 'multipart part without a name',
    payload: '--x\r\nContent-Disposition: form-data\r\n\r\n1\r\n--x--\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  { label: 'multipart part without headers', payload: '--x\r\n\r\n1\r\n--x--\r\n', contentType: 'multipart/form-data; boundary=x' },
  {
    label: 'multipart fields only, wrong types',
    payload:
      '--x\r\nContent-Disposition: form-data; name="ticketId"\r\n\r\n1e400\r\n--x\r\nContent-Disposition: form-data; name="basicDetails"\r\n\r\n[1,2]\r\n--x--\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  {
    label: 'multipart basicDetails not JSON',
    payload: '--x\r\nContent-Disposition: form-data; name="basicDetails"\r\n\r\n{"firstName":\r\n--x--\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  {
    label: 'multipart repeated field',
    payload:
      '--x\r\nContent-Disposition: form-data; name="ticketId"\r\n\r\na\r\n--x\r\nContent-Disposition: form-data; name="ticketId"\r\n\r\nb\r\n--x--\r\n',
    contentType: 'multipart/form-data; boundary=x',
  },
  { label: 'multipart epilogue only', payload: '--x--\r\n', contentType: 'multipart/form-data; boundary=x' },
  { label: 'multipart as text', payload: 'hello', contentType: 'text/plain' },
];

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Well-formed multipart bodies whose fields and file name are generated (the attachment upload; KYC allows 10 a minute). */
function multipartVariants(ticketId: string): fc.Arbitrary<Variant & { body: Buffer }> {
  const text = anyHostile.map(stringValue);
  return fc
    .record({
      ticketId: fc.oneof(text, fc.constant(ticketId), fc.constant(undefined)),
      responseId: fc.oneof(text, fc.constant(undefined)),
      fileName: fc.oneof(
        fc.constantFrom(
          'a.png',
          'a.PNG',
          '.png',
          'a',
          'a.png.exe',
          '\u202egnp.exe',
          'a\u200b.png',
          '\u{1F9E8}.png',
          'e\u0301.png',
          'x'.repeat(3000) + '.png',
        ),
        text,
      ),
      partType: fc.constantFrom('image/png', 'application/octet-stream', 'text/html', '', 'image/png; charset=\u00ff'),
      data: fc.constantFrom(PNG, Buffer.alloc(0), Buffer.from('%PDF-1.4 not really'), Buffer.from('GIF89a')),
    })
    .map((r) => {
      const boundary = 'fuzzboundary';
      const parts: Buffer[] = [];
      const field = (name: string, value: string) =>
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
      if (r.ticketId !== undefined) field('ticketId', r.ticketId);
      if (r.responseId !== undefined) field('responseId', r.responseId);
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${encodeURIComponent(r.fileName)}\r\n${r.partType ? `Content-Type: ${r.partType}\r\n` : ''}\r\n`,
        ),
      );
      parts.push(r.data, Buffer.from(`\r\n--${boundary}--\r\n`));
      return {
        label: `multipart ticketId=${show(r.ticketId)} responseId=${show(r.responseId)} file=${show(r.fileName)} type=${show(r.partType)} ${r.data.length} bytes`,
        url: '',
        body: Buffer.concat(parts),
        contentType: `multipart/form-data; boundary=${boundary}`,
      };
    });
}

/**
 * Samples that pass the domain checks too, where route-policy.ts's only pass the schema (the
 * matrix needs no more): a fuzzed field then reaches the decider and the database.
 */
const DEEPER: Record<
  string,
  (ids: Ids, sample: { query?: Record<string, string>; body?: unknown }) => { query?: Record<string, string>; body?: unknown }
> = {
  'GET /api/v1/admin/balance-at': (_ids, s) => ({ query: { ...s.query, at: '2026-06-01' } }),
  'POST /functions/v1/add-transaction': (_ids, s) => ({
    body: { ...(s.body as object), sentAt: new Date(Date.now() - 60_000).toISOString(), senderAddress: 'staff-wallet', txid: 'fuzz' },
  }),
  'POST /functions/v1/create-stake-transaction': (_ids, s) => ({
    body: { ...(s.body as object), amount: '0.06', durationDays: 30, rate: '9.1' },
  }),
  // The world's admin sees every customer's tickets; the owned customer's ticket is the one it furnished.
  'POST /functions/v1/update-ticket-status': (ids, s) => ({ body: { ...(s.body as object), ticketId: ids.ticketId } }),
};

/** The signed-in callers a route concerns: always a customer and an admin, plus the staff role it names. */
function callersOf(entry: RoutePolicy): Exclude<Role, 'anonymous'>[] {
  const roles: Exclude<Role, 'anonymous'>[] = ['USER', 'ADMIN'];
  if (entry.policy === 'worker-only' || entry.policy === 'staff-owner' || entry.policy === 'staff') roles.push('WORKER');
  if (entry.policy === 'manager-only' || entry.policy === 'manager-of-worker') roles.push('MANAGER');
  return roles;
}

describe('route fuzz: malformed variations of every route sample, as each caller, never a 5xx', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildWorld(t, 'fuzz');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  /**
   * Routes that end or change the caller's session or password (sign-out, password and e-mail
   * changes, removing a factor) are called by spare accounts of the same role, replaced when a
   * call ended their session, so that the world's callers keep theirs for the other routes.
   */
  const spares = new Map<string, string>();
  let spareCount = 0;
  const spareHeaders = async (role: Exclude<Role, 'anonymous'>): Promise<Record<string, string>> => {
    const token = spares.get(role);
    if (token) {
      const alive = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { authorization: `Bearer ${token}` } });
      if (alive.statusCode === 200) return { authorization: `Bearer ${token}` };
    }
    const email = `fuzz-spare-${++spareCount}-${role.toLowerCase()}@example.com`;
    // The world's password for the role, so that samples that repeat it (verify-and-update-password) pass.
    const password = w.passwords[role];
    await t.app.authServices.accounts.createAccount({
      email,
      password,
      fullName: `Spare ${role}`,
      role,
      source: 'operator',
      requiresPasswordChange: false,
      emailConfirmed: true,
      actor: { id: 'operator', role: 'OPERATOR' },
    });
    const access = (await signIn(t, email, password)).access_token;
    spares.set(role, access);
    return { authorization: `Bearer ${access}` };
  };
  const changesSession = (key: string, entry: RoutePolicy) =>
    Boolean(entry.fresh) || ['PUT /auth/v1/user', 'POST /functions/v1/verify-and-update-password', 'POST /auth/v1/logout'].includes(key);
  const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

  it('answers every malformed request below 500', async () => {
    const started = Date.now();
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<string, number>();
    const routes = t.app.routeInventory.filter((r) => !r.websocket);
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const entry = ROUTE_POLICY[key];
      if (!entry || entry.coveredBy) continue;
      const multipart = JSON.stringify(route.schema?.consumes ?? []).includes('multipart/form-data');
      for (const role of callersOf(entry)) {
        const selfId = (await w.session(role).catch(() => null))?.user.id ?? w.self.userId;
        const customer = role === 'USER' ? w.self : w.owned;
        const ids: Ids = { ...customer, workerId: w.worker, managerId: w.manager, spareWorkerId: w.spareWorker, selfId };
        const spec = entry.request?.(ids, { password: w.passwords[role] }) ?? {};
        const sample = { url: spec.url ?? route.url, query: spec.query, body: spec.body, ...DEEPER[key]?.(ids, spec) };
        const send = async (v: Variant) => {
          const caller = changesSession(key, entry) ? await spareHeaders(role) : await w.headers(role);
          const headers = { ...caller, ...spec.headers, ...(v.contentType ? { 'content-type': v.contentType } : {}), ...v.headers };
          let status: number;
          let body: string;
          try {
            const res = await t.app.inject({
              method: route.method as InjectOptions['method'],
              url: v.url,
              headers,
              payload: v.payload,
              remoteAddress: randomIp(),
            });
            status = res.statusCode;
            body = res.body;
          } catch (err) {
            status = 599;
            body = `inject threw: ${(err as Error).message}`;
          }
          sent++;
          const bucket = `${key} ${role} ${status}`;
          statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
          if (status >= 500) failures.push(`${key} as ${role}: ${v.label} -> ${status} ${body.slice(0, 160)}`);
        };
        if (multipart) {
          for (const c of MULTIPART_CASES) await send({ ...c, url: sample.url });
          if (route.url.endsWith('/upload-ticket-attachment')) {
            await fc.assert(
              fc.asyncProperty(multipartVariants(customer.ticketId), async (v) => {
                await send({ ...v, url: sample.url, payload: v.body });
                return true;
              }),
              { numRuns: RUNS, seed: SEED },
            );
          }
          continue;
        }
        await fc.assert(
          fc.asyncProperty(variants(route, sample), async (v) => {
            await send(v);
            return true;
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
    }
    console.log(
      `route fuzz: ${routes.length} routes, ${sent} requests, ${spareCount} spare callers, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (process.env.FUZZ_STATUSES) console.log([...statuses].map(([k, n]) => `${k} x${n}`).join('\n'));
    if (failures.length) console.log(`route fuzz failures:\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(routes.length * RUNS);
  }, 240_000);
});

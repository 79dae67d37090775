import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

/*
 * The values the route fuzz (route-fuzz.int.spec.ts) puts into bodies, queries and headers:
 * hostile JSON of every type, and variations of a field's valid value.
 */

/** JSON text put into a body as is (numbers that JSON.stringify cannot write). */
export class Raw {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

export const toJsonText = (value: unknown): string => {
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

export const show = (v: unknown): string => {
  const s = v instanceof Raw ? v.text : typeof v === 'string' ? JSON.stringify(v) : toJsonText(v);
  return s.length > 60 ? `${s.slice(0, 57)}...(${s.length})` : s;
};

export const unicodeEdges = [
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

export const numberish = [
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
export const anyHostile: fc.Arbitrary<unknown> = fc.oneof(
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
export const aroundValid = (valid: unknown): fc.Arbitrary<unknown> => {
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

/** A value as the text of a query parameter or a form field. */
export const stringValue = (v: unknown): string => (v instanceof Raw ? v.text : typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

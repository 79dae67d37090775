import { Decimal } from 'decimal.js';

/**
 * COPY's binary format (`copy … from stdin with (format binary)`), written value by value
 * into one growing buffer. PostgreSQL reads each value with its type's receive function:
 * a uuid is 16 bytes, a timestamp 8, a numeric its base-10000 digits. With the text
 * format it parses each one from its text (for the replay's tables, twice the server's
 * time, docs/performance.md round 16).
 *
 * A row starts with `row(fields)` and must then get exactly that many values, in the
 * order of the statement's columns, each written for the column's own type (binary input
 * is not converted: an int4 column refuses an int8 value).
 */
export class CopyBinary {
  private buf = Buffer.allocUnsafe(16 * 1024);
  private len = 0;
  private finished = false;
  private rows = 0;

  constructor() {
    // Signature, flags (no OIDs), no header extension.
    this.len = this.buf.write('PGCOPY\n\xff\r\n\0', 0, 'latin1');
    this.int32(0);
    this.int32(0);
  }

  /** Rows started so far. */
  get rowCount(): number {
    return this.rows;
  }

  /** Starts a row of `fields` values. */
  row(fields: number): this {
    this.room(2);
    this.int16(fields);
    this.rows++;
    return this;
  }

  /** SQL NULL, for a column of any type. */
  null(): this {
    this.room(4);
    this.int32(-1);
    return this;
  }

  /** A uuid from its text (`8-4-4-4-12` hexadecimal digits, either case, or the 32 digits alone); null for NULL. */
  uuid(value: string | null): this {
    if (value === null) return this.null();
    this.room(20);
    this.int32(16);
    let bad: number;
    if (value.length === 36) {
      bad = value.charCodeAt(8) ^ 45 | value.charCodeAt(13) ^ 45 | value.charCodeAt(18) ^ 45 | value.charCodeAt(23) ^ 45 ? -1 : 0;
      bad |= this.hex(value, 0, 4) | this.hex(value, 9, 2) | this.hex(value, 14, 2) | this.hex(value, 19, 2) | this.hex(value, 24, 6);
    } else {
      bad = value.length === 32 ? this.hex(value, 0, 16) : -1;
    }
    if (bad < 0) throw new TypeError(`invalid uuid: ${JSON.stringify(value)}`);
    return this;
  }

  /** Writes `bytes` bytes from the hexadecimal digits at `from`; negative if one is no digit. */
  private hex(value: string, from: number, bytes: number): number {
    let bad = 0;
    const buf = this.buf;
    const len = this.len;
    for (let i = 0; i < bytes; i++) {
      const hi = HEX[value.charCodeAt(from + 2 * i)]!;
      const lo = HEX[value.charCodeAt(from + 2 * i + 1)]!;
      bad |= hi | lo;
      buf[len + i] = (hi << 4) | (lo & 15);
    }
    this.len = len + bytes;
    return bad;
  }

  /** An int8 (bigint). */
  int8(value: bigint): this {
    if (value >= -MAX_SAFE && value <= MAX_SAFE) return this.int64Field(Number(value));
    this.room(12);
    this.int32(8);
    this.buf.writeBigInt64BE(value, this.len);
    this.len += 8;
    return this;
  }

  /** An 8-byte value (an int8, or a timestamptz in microseconds since 2000) from a safe integer. */
  private int64Field(v: number): this {
    this.room(12);
    this.int32(8);
    const hi = Math.floor(v / 4294967296);
    this.int32(hi);
    this.int32(v - hi * 4294967296);
    return this;
  }

  /** A boolean. */
  bool(value: boolean): this {
    this.room(5);
    this.int32(1);
    this.buf[this.len++] = value ? 1 : 0;
    return this;
  }

  /** A text value (UTF-8); null for NULL. */
  text(value: string | null): this {
    if (value === null) return this.null();
    const length = value.length;
    this.room(4 + length * 3);
    const at = this.len;
    if (length <= SHORT_TEXT) {
      // Short ASCII text byte by byte: cheaper than a call into Buffer#write.
      let i = 0;
      const buf = this.buf;
      for (; i < length; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        buf[at + 4 + i] = c;
      }
      if (i === length) {
        this.int32(length);
        this.len += length;
        return this;
      }
    }
    const n = this.buf.write(value, at + 4);
    this.buf.writeInt32BE(n, at);
    this.len = at + 4 + n;
    return this;
  }

  /** A timestamptz at `date` (microseconds since 2000-01-01, PostgreSQL's epoch, as an int8). */
  timestamp(date: Date): this {
    const ms = date.getTime();
    if (!Number.isFinite(ms)) throw new RangeError('invalid timestamp: an invalid Date');
    const us = (ms - POSTGRES_EPOCH_MS) * 1000;
    // Far from 2000 (before 1715 or after 2285) the microseconds are exact only in a bigint.
    return Number.isSafeInteger(us) ? this.int64Field(us) : this.int8(BigInt(ms - POSTGRES_EPOCH_MS) * 1000n);
  }

  /** A timestamptz given as microseconds since 1970 (`isoMicros`). */
  timestampMicros(micros: number): this {
    if (!Number.isSafeInteger(micros)) throw new RangeError(`invalid timestamp: ${micros} microseconds`);
    return this.int64Field(micros - POSTGRES_EPOCH_MS * 1000);
  }

  /**
   * A numeric from a decimal text (`-?digits[.digits]`; any other form decimal.js reads,
   * an exponent say, is first written out in full). The column's precision and scale are
   * applied by the server, as for text input.
   */
  numeric(value: string): this {
    const at = this.len;
    this.room(4);
    this.len += 4;
    this.numericBody(value);
    this.buf.writeInt32BE(this.len - at - 4, at);
    return this;
  }

  /** A one-dimensional text[] of `get(item)` for each item, none NULL. */
  textArray<T>(items: readonly T[], get: (item: T) => string): this {
    const at = this.arrayStart(items.length, TEXT_OID);
    for (let i = 0; i < items.length; i++) this.text(get(items[i]!));
    this.buf.writeInt32BE(this.len - at - 4, at);
    return this;
  }

  /** A one-dimensional numeric[] of `get(item)` for each item (`numeric`), none NULL. */
  numericArray<T>(items: readonly T[], get: (item: T) => string): this {
    const at = this.arrayStart(items.length, NUMERIC_OID);
    for (let i = 0; i < items.length; i++) this.numeric(get(items[i]!));
    this.buf.writeInt32BE(this.len - at - 4, at);
    return this;
  }

  /** The whole input, its trailer included; nothing can be written after. */
  bytes(): Uint8Array {
    if (!this.finished) {
      this.room(2);
      this.int16(-1);
      this.finished = true;
    }
    return this.buf.subarray(0, this.len);
  }

  /** Writes an array's header and returns where its length goes. */
  private arrayStart(length: number, elementOid: number): number {
    this.room(24);
    const at = this.len;
    this.len += 4;
    this.int32(1); // dimensions
    this.int32(0); // no NULL elements
    this.int32(elementOid);
    this.int32(length);
    this.int32(1); // lower bound
    return at;
  }

  private numericBody(value: string): void {
    const n = value.length;
    const negative = value.charCodeAt(0) === 45; /* - */
    const start = negative ? 1 : 0;
    let dot = value.indexOf('.', start);
    if (dot < 0) dot = n;
    if (dot === start || dot === n - 1 || n - dot - 1 > 0x3fff || n - start > 2000) return this.numericSlow(value);
    const dscale = dot === n ? 0 : n - dot - 1;
    // Base-10000 digits aligned on the decimal point: the integer part grouped from the
    // right (its first group shorter), the fraction from the left (its last group padded).
    const groups = GROUPS;
    let g = 0;
    let k = start;
    let size = (dot - start) % 4 || 4;
    while (k < dot) {
      let acc = 0;
      for (const end = k + size; k < end; k++) {
        const d = value.charCodeAt(k) - 48;
        if (d < 0 || d > 9) return this.numericSlow(value);
        acc = acc * 10 + d;
      }
      groups[g++] = acc;
      size = 4;
    }
    let weight = g - 1;
    for (k = dot + 1; k < n; ) {
      let acc = 0;
      let c = 0;
      for (; c < 4 && k < n; c++, k++) {
        const d = value.charCodeAt(k) - 48;
        if (d < 0 || d > 9) return this.numericSlow(value);
        acc = acc * 10 + d;
      }
      for (; c < 4; c++) acc *= 10;
      groups[g++] = acc;
    }
    let from = 0;
    while (from < g && groups[from] === 0) {
      from++;
      weight--;
    }
    while (g > from && groups[g - 1] === 0) g--;
    const ndigits = g - from;
    this.room(8 + ndigits * 2);
    const buf = this.buf;
    let len = this.len;
    const head = ndigits === 0 ? 0 : weight;
    const sign = negative && ndigits > 0 ? NUMERIC_NEG : NUMERIC_POS;
    buf[len++] = ndigits >> 8;
    buf[len++] = ndigits & 0xff;
    buf[len++] = (head >> 8) & 0xff;
    buf[len++] = head & 0xff;
    buf[len++] = sign >> 8;
    buf[len++] = 0;
    buf[len++] = dscale >> 8;
    buf[len++] = dscale & 0xff;
    for (let i = from; i < g; i++) {
      const d = groups[i]!;
      buf[len++] = d >> 8;
      buf[len++] = d & 0xff;
    }
    this.len = len;
  }

  /** A numeric text in another form than plain digits: decimal.js writes it out (and throws on what is no number). */
  private numericSlow(value: string): void {
    const plain = new Decimal(value).toFixed();
    if (plain === value) throw new TypeError(`invalid numeric: ${JSON.stringify(value)}`);
    this.numericBody(plain);
  }

  private room(bytes: number): void {
    if (this.finished) throw new Error('CopyBinary: bytes() was already taken');
    if (this.len + bytes <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + bytes));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  private int16(v: number): void {
    const buf = this.buf;
    const len = this.len;
    buf[len] = v >> 8;
    buf[len + 1] = v;
    this.len = len + 2;
  }

  private int32(v: number): void {
    const buf = this.buf;
    const len = this.len;
    buf[len] = v >>> 24;
    buf[len + 1] = v >>> 16;
    buf[len + 2] = v >>> 8;
    buf[len + 3] = v;
    this.len = len + 4;
  }
}

/** Text up to this length is tried as ASCII, written byte by byte. */
const SHORT_TEXT = 64;
/** Scratch space for a numeric's base-10000 digits (up to 2,000 decimal digits). */
const GROUPS = new Uint16Array(512);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const TEXT_OID = 25;
const NUMERIC_OID = 1700;
const NUMERIC_POS = 0x0000;
const NUMERIC_NEG = 0x4000;
/** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in milliseconds since 1970. */
const POSTGRES_EPOCH_MS = 946_684_800_000;

/** A UTF-16 code unit's value as a hexadecimal digit, -1 for any other code unit. */
const HEX = new Int8Array(65536).fill(-1);
for (let c = 0; c < 128; c++) if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)) HEX[c] = c <= 57 ? c - 48 : (c | 32) - 87;

const ISO = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:(Z)|([+-])(\d\d):(\d\d))$/;

/**
 * The instant of an RFC 3339 timestamp (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, the form
 * the events' schemas accept) in microseconds since 1970, rounded as PostgreSQL rounds
 * (the fraction read as a double, times a million, rounded half to even); null for any
 * other text, an impossible date, or one too far from 1970 for a safe integer (about 285
 * years): the caller then writes it as text.
 */
export function isoMicros(text: string): number | null {
  return canonicalIsoMicros(text) ?? generalIsoMicros(text);
}

/** The day `canonicalIsoMicros` last read, as the number YYYYMMDD, and its start in milliseconds. */
let lastDay = -1;
let lastDayMs = 0;

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` (what `toISOString` writes, nearly every timestamp in the
 * log) read digit by digit; the day is kept from the last call. Null for any other text.
 */
function canonicalIsoMicros(t: string): number | null {
  if (t.length !== 24 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45 || t.charCodeAt(10) !== 84 || t.charCodeAt(13) !== 58 ||
    t.charCodeAt(16) !== 58 || t.charCodeAt(19) !== 46 || t.charCodeAt(23) !== 90) return null;
  const day = digits(t, 0, 4) * 10000 + digits(t, 5, 2) * 100 + digits(t, 8, 2);
  const hour = digits(t, 11, 2);
  const minute = digits(t, 14, 2);
  const second = digits(t, 17, 2);
  const millis = digits(t, 20, 3);
  if (day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0) return null;
  if (day !== lastDay) {
    const ms = dayStart(Math.floor(day / 10000), Math.floor(day / 100) % 100, day % 100);
    if (ms === null) return null;
    lastDay = day;
    lastDayMs = ms;
  }
  return safe((lastDayMs + ((hour * 60 + minute) * 60 + second) * 1000 + millis) * 1000);
}

/** The start of a day in milliseconds since 1970; null for a date that does not exist (or a year before 100). */
function dayStart(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  // Date.UTC maps years 0-99 to 1900-1999, and rolls 31 April over into May.
  return check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day ? ms : null;
}

/** `micros` when it is a safe integer (within about 285 years of 1970), else null. */
function safe(micros: number): number | null {
  return Number.isSafeInteger(micros) ? micros : null;
}

/** The decimal number of `count` digits at `from`; negative if one is no digit. */
function digits(t: string, from: number, count: number): number {
  let v = 0;
  for (let i = from; i < from + count; i++) {
    const d = t.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1e9;
    v = v * 10 + d;
  }
  return v;
}

function generalIsoMicros(text: string): number | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const start = dayStart(year, month, day);
  if (start === null || hour > 23 || minute > 59 || second > 59) return null;
  const ms = start + ((hour * 60 + minute) * 60 + second) * 1000;
  let offsetMinutes = 0;
  if (!m[8]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    // PostgreSQL refuses a displacement past 15:59; the text then fails as it did.
    if (oh > 15 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const fraction = m[7] ? roundHalfEven(Number(`0.${m[7]}`) * 1_000_000) : 0;
  return safe((ms - offsetMinutes * 60_000) * 1000 + fraction);
}

/** C's rint in the default rounding mode: to the nearest integer, halves to the even one. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

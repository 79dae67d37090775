import fc from 'fast-check';
import { anyHostile, show, stringValue } from './fuzz-values.js';
import type { Variant } from './fuzz-variants.js';

/** Handmade broken multipart bodies for the upload routes (hostile-input covers well-formed but hostile parts). */
export const MULTIPART_CASES: { label: string; payload: string; contentType: string }[] = [
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
export function multipartVariants(ticketId: string): fc.Arbitrary<Variant & { body: Buffer }> {
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

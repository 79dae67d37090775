import { describe, expect, it } from 'vitest';
import { checkUpload, sniff } from './sniff.js';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const EXE = Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, ...new Array(64).fill(0)]);

describe('upload sniffing', () => {
  it('recognises images and PDFs by their bytes', async () => {
    expect((await sniff(PNG))?.ext).toBe('png');
    expect((await sniff(PDF))?.ext).toBe('pdf');
  });

  it('refuses an executable renamed to .png', async () => {
    expect(await checkUpload('holiday.png', EXE, ['png', 'pdf'])).toMatchObject({ ok: false, reason: 'content' });
  });

  it('refuses a PDF that claims to be a PNG, and an extension outside the list', async () => {
    expect(await checkUpload('scan.png', PDF, ['png', 'pdf'])).toMatchObject({ ok: false, reason: 'content' });
    expect(await checkUpload('tool.exe', EXE, ['png', 'pdf'])).toMatchObject({ ok: false, reason: 'extension', ext: 'exe' });
  });

  it('accepts text and CSV only when the bytes are text', async () => {
    const csv = new TextEncoder().encode('date,amount\n2026-01-01,1.5\n');
    expect(await checkUpload('export.csv', csv, ['csv'])).toMatchObject({ ok: true, mime: 'text/csv' });
    expect(await checkUpload('export.csv', EXE, ['csv'])).toMatchObject({ ok: false, reason: 'content' });
  });
});

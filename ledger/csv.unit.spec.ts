import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, csvText, isFormulaLike } from './csv.js';

/** Reads one CSV row back as RFC 4180 says (quoted fields, doubled quotes). */
function parseRow(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else cell += line[i++];
      }
      cells.push(cell);
      i++; // the comma
    } else {
      const end = line.indexOf(',', i);
      cells.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return cells;
}

describe('CSV cells (OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","Click")', `"'=HYPERLINK(""http://evil.example"",""Click"")"`],
    ['+cmd|/C calc!A0', `"'+cmd|/C calc!A0"`],
    ['-2+3+cmd|/C calc!A0', `"'-2+3+cmd|/C calc!A0"`],
    ['@SUM(1+1)*cmd|/C calc!A0', `"'@SUM(1+1)*cmd|/C calc!A0"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
    ['-', `"'-"`],
    ['+5', `"'+5"`],
  ])('neutralises %j: a single quote in front, quoted', (value, cell) => {
    expect(isFormulaLike(value)).toBe(true);
    expect(csvCell(value)).toBe(cell);
    expect(parseRow(csvCell(value))).toEqual([`'${value}`]);
  });

  it('keeps a plain signed decimal as a number: -12.5 is an amount, not a formula', () => {
    for (const n of ['-12.5', '-0.00000001', '0', '12', '-1000000']) {
      expect(isFormulaLike(n)).toBe(false);
      expect(csvCell(n)).toBe(n);
    }
    // Anything else after the sign is text, not a number.
    for (const v of ['-1e5', '-12.5)', '-12,5', '- 1', '-.5']) expect(csvCell(v).startsWith(`"'`)).toBe(true);
  });

  it('quotes only what RFC 4180 needs, and leaves a formula character inside a cell alone', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('1+1=2')).toBe('1+1=2');
    expect(csvCell('a@b.example')).toBe('a@b.example');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes a row that reads back to the same values, each hostile one with its quote', () => {
    const values = ['2026-01-01', '=1+1', 'note, "quoted"', '-3.25', '@x'];
    const line = csvRow(values);
    expect(line.endsWith('\r\n')).toBe(true);
    expect(parseRow(line.slice(0, -2))).toEqual(['2026-01-01', "'=1+1", 'note, "quoted"', '-3.25', "'@x"]);
  });
});

describe('csv text', () => {
  it('writes rows through the same cells: formulas neutralised, signed numbers kept', () => {
    expect(
      csvText([
        ['a', '=1'],
        ['-1', 'b'],
      ]),
    ).toBe(`a,"'=1"\r\n-1,b\r\n`);
  });
});

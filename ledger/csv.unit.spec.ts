import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv.js';

describe('csv cells', () => {
  it('neutralises a cell a spreadsheet would run as a formula, and keeps signed numbers as numbers', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('0.1')).toBe('0.1');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(
      csvText([
        ['a', '=1'],
        ['-1', 'b'],
      ]),
    ).toBe("a,'=1\r\n-1,b\r\n");
  });
});

import { guardFormula, unguardFormula } from './formula-guard';

describe('formula guard (CSV injection)', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['+cmd', "'+cmd"],
    ['-x', "'-x"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    ['\uFF0Bx', "'\uFF0Bx"],
    ['\uFF0Dx', "'\uFF0Dx"],
    ['\uFF20x', "'\uFF20x"],
    ['  =1+1', "'  =1+1"],
    ['"=1+1"', `'"=1+1"`],
  ])('guards %j at the start of the text', (text, guarded) => {
    expect(guardFormula(text)).toBe(guarded);
  });

  it.each([
    ['x;=HYPERLINK("http://a")', `x;'=HYPERLINK("http://a")`],
    ['a;=1+1', "a;'=1+1"],
    ['a; -1+1;b', "a;' -1+1;b"],
    ['one\n=cmd', "one\n'=cmd"],
    ['one\r\n+cmd', "one\r\n'+cmd"],
    ['one\r@cmd', "one\r'@cmd"],
    ['=a;=b\n=c', "'=a;'=b\n'=c"],
  ])('guards %j wherever a reader with , or ; as separator starts a cell', (text, guarded) => {
    expect(guardFormula(text)).toBe(guarded);
  });

  it.each(['Drama; Crime', "'Salem's Lot", 'Sci-Fi', 'a, =b', 'x = y', '1-2', 'Line\nline'])(
    'leaves %j as it is',
    (text) => {
      expect(guardFormula(text)).toBe(text);
    },
  );

  it('gives back every text it guarded, apostrophes the text had included', () => {
    const pieces = ['', "'", "''", '=', '-1', ' ', '"', ';', '\n', '\r', '\r\n', '\t', 'a', '\uFF0D', ','];
    for (const a of pieces)
      for (const b of pieces)
        for (const c of pieces) {
          const text = a + b + c;
          expect(unguardFormula(guardFormula(text))).toBe(text);
        }
  });
});

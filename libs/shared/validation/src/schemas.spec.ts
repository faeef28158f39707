import { objectIdString, queryInt } from './schemas';

describe('objectIdString', () => {
  it('normalises a valid id to lower case and rejects malformed ones', () => {
    expect(objectIdString().parse('ABCDEF0123456789ABCDEF01')).toBe('abcdef0123456789abcdef01');
    expect(objectIdString().safeParse('not-an-id').success).toBe(false);
  });
});

describe('queryInt', () => {
  const page = queryInt(1, 100);

  it('parses plain integers within bounds', () => {
    expect(page.parse('1')).toBe(1);
    expect(page.parse('100')).toBe(100);
  });

  it('rejects what is not written as an integer instead of coercing it', () => {
    for (const text of ['1e2', ' 5', '5 ', '5.0', '0x10', '', '+5', '１']) expect(page.safeParse(text).success).toBe(false);
  });

  it('rejects values out of bounds instead of clamping them', () => {
    expect(page.safeParse('0').success).toBe(false);
    expect(page.safeParse('101').success).toBe(false);
    expect(page.safeParse('-1').success).toBe(false);
  });
});

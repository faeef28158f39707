import { InvalidArgumentError } from 'commander';
import { date, entryIds, integer, integerOrNone, scopes } from './arguments';

describe('option values', () => {
  it('takes whole numbers within bounds only', () => {
    expect(integer(1, 10)('7')).toBe(7);
    for (const bad of ['0', '11', '7.5', 'seven', '', '1e1']) expect(() => integer(1, 10)(bad)).toThrow(InvalidArgumentError);
    expect(integerOrNone(1, 10)('none')).toBeNull();
  });

  it('takes calendar dates, or none', () => {
    expect(date('2026-02-28')).toBe('2026-02-28');
    expect(date('none')).toBeNull();
    for (const bad of ['2026-2-28', '28.02.2026', '2026-13-01', 'yesterday']) expect(() => date(bad)).toThrow('expected a date YYYY-MM-DD');
  });

  it('takes known scopes, comma-separated, without repeats', () => {
    expect(scopes('list:read, list:write,list:read')).toEqual(['list:read', 'list:write']);
    expect(() => scopes('list:read,admin')).toThrow('expected a comma-separated list of profile:read, catalog:write');
    expect(() => scopes(',')).toThrow(InvalidArgumentError);
  });
});

describe('entryIds', () => {
  const a = '65f1c0ffee0000000000abcd';
  const b = '65F1C0FFEE0000000000ABCE';

  it('splits on whitespace and commas, lower-cases and drops repeats (the bulk API refuses duplicates)', () => {
    expect(entryIds([`${a}\n${b}`, `${a},${b.toLowerCase()}`, ''])).toEqual([a, b.toLowerCase()]);
  });

  it('names the ids that are not ids, the first five of them', () => {
    expect(() => entryIds([a, 'nope', '123'])).toThrow('not an entry id (24 hexadecimal characters): nope, 123');
    const many = Array.from({ length: 7 }, (_, i) => `bad${i}`);
    expect(() => entryIds(many)).toThrow('bad0, bad1, bad2, bad3, bad4, … (7 in all)');
  });
});

import { z } from 'zod';
import { zodIssuesToDetails } from './zod-details';

describe('zodIssuesToDetails', () => {
  it('joins nested paths with dots', () => {
    const schema = z.object({ list: z.array(z.object({ name: z.string() })) });
    const result = schema.safeParse({ list: [{ name: 'ok' }, { name: 3 }] });
    expect(zodIssuesToDetails(result.error!.issues)).toEqual([{ path: 'list.1.name', message: expect.any(String) }]);
  });

  it('lists unknown keys one by one, also in nested objects', () => {
    const schema = z.strictObject({ inner: z.strictObject({ a: z.string() }) });
    const result = schema.safeParse({ inner: { a: 'x', b: 1, c: 2 }, d: 3 });
    expect(zodIssuesToDetails(result.error!.issues)).toEqual(
      expect.arrayContaining([
        { path: 'inner.b', message: 'unknown field' },
        { path: 'inner.c', message: 'unknown field' },
        { path: 'd', message: 'unknown field' },
      ]),
    );
  });

  it('says "is required" for an absent field when it knows the input, and keeps zod\'s message otherwise', () => {
    const schema = z.object({ name: z.string() });
    const issues = schema.safeParse({}).error!.issues;
    expect(zodIssuesToDetails(issues, {})).toEqual([{ path: 'name', message: 'is required' }]);
    expect(zodIssuesToDetails(issues)).toEqual([{ path: 'name', message: issues[0]!.message }]);
  });

  it('keeps custom messages', () => {
    const schema = z.object({ isbn: z.string().refine(() => false, 'must be a valid ISBN-10 or ISBN-13') });
    expect(zodIssuesToDetails(schema.safeParse({ isbn: 'x' }).error!.issues, { isbn: 'x' })).toEqual([
      { path: 'isbn', message: 'must be a valid ISBN-10 or ISBN-13' },
    ]);
  });
});

import { z } from 'zod';
import { zodIssuesToDetails } from './zod-details';
import './messages';

const detailsOf = (schema: z.ZodType, input: unknown) => zodIssuesToDetails(schema.safeParse(input).error!.issues, input);

describe('human error messages', () => {
  it.each([
    ['an integer', z.object({ n: z.number().int() }), { n: 1.5 }, 'must be an integer'],
    ['a number', z.object({ n: z.number() }), { n: 'x' }, 'must be a number'],
    ['a string', z.object({ s: z.string() }), { s: 3 }, 'must be a string'],
    ['a list', z.object({ a: z.array(z.string()) }), { a: 'x' }, 'must be a list'],
    ['a date', z.object({ d: z.iso.date() }), { d: '21/11/2026' }, 'must be a date in YYYY-MM-DD format (e.g. 2026-11-21)'],
    ['a timestamp', z.object({ t: z.iso.datetime() }), { t: 'yesterday' }, 'must be a UTC timestamp like 2026-11-21T16:11:00.000Z'],
    ['an email', z.object({ e: z.email() }), { e: 'nope' }, 'must be an email address'],
    ['one of a set', z.object({ s: z.enum(['watching', 'completed']) }), { s: 'done' }, 'must be one of: watching, completed'],
    ['a short string', z.object({ s: z.string().min(3) }), { s: 'ab' }, 'must be at least 3 characters'],
    ['a non-empty string', z.object({ s: z.string().min(1) }), { s: '' }, 'must not be empty'],
    ['a long string', z.object({ s: z.string().max(2) }), { s: 'abc' }, 'must be at most 2 characters'],
    ['a small number', z.object({ n: z.number().max(10) }), { n: 11 }, 'must be at most 10'],
    ['a long list', z.object({ a: z.array(z.string()).max(1) }), { a: ['a', 'b'] }, 'must have at most 1 item'],
  ])('says what %s should be, without validator jargon', (_name, schema, input, message) => {
    expect(detailsOf(schema, input)).toEqual([{ path: Object.keys(input as object)[0], message }]);
  });

  it('keeps a message written on the schema', () => {
    const schema = z.object({ isbn: z.string().regex(/^\d+$/, 'must be a valid ISBN') });
    expect(detailsOf(schema, { isbn: 'x' })).toEqual([{ path: 'isbn', message: 'must be a valid ISBN' }]);
  });

  it('names a missing field as required and an unknown one as unknown', () => {
    const schema = z.strictObject({ title: z.string() });
    expect(detailsOf(schema, { titel: 'x' })).toEqual(expect.arrayContaining([{ path: 'title', message: 'is required' }, { path: 'titel', message: 'unknown field' }]));
  });
});

import { optionalDate, toCalendarDate } from './dates';

describe('toCalendarDate', () => {
  it.each([
    ['2024-03-09', '2024-03-09'],
    ['2024/03/09', '2024-03-09'],
    ['2024/3/9', '2024-03-09'],
    ['2024-02-29', '2024-02-29'],
    ['2014-10-11T23:30:54.000Z', '2014-10-11'],
    ['2021-06-30T23:30:00-02:00', '2021-07-01'],
    ['2021-06-30 22:05:00', '2021-06-30'],
  ])('reads %s as %s', (raw, date) => expect(toCalendarDate(raw)).toBe(date));

  it.each(['2023-02-29', '2023-13-01', '2023-00-10', '31/12/2023', 'yesterday', '0099-01-01', ''])(
    'refuses %p',
    (raw) => {
      expect(toCalendarDate(raw)).toBeUndefined();
    },
  );
});

describe('optionalDate', () => {
  it('keeps empty as null silently and drops a bad date with a warning naming the field', () => {
    const warnings: string[] = [];
    expect(optionalDate('  ', 'Date Read', warnings)).toBeNull();
    expect(optionalDate('2023/02/30', 'Date Read', warnings)).toBeNull();
    expect(warnings).toEqual(["Date Read '2023/02/30' is not a date and was dropped"]);
  });
});

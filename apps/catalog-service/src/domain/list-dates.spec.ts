import { datesProblem, utcToday, withStatusDates } from './list-dates';

const today = '2026-11-21';
const empty = { started_at: null, finished_at: null };

describe('list entry dates', () => {
  it('fills an empty start date when the status is set to watching', () => {
    expect(withStatusDates(empty, 'watching', today)).toEqual({ started_at: today, finished_at: null });
    expect(withStatusDates({ started_at: '2020-01-01', finished_at: null }, 'watching', today).started_at).toBe('2020-01-01');
  });

  it('fills an empty finish date when the status is set to completed', () => {
    expect(withStatusDates(empty, 'completed', today)).toEqual({ started_at: null, finished_at: today });
  });

  it('clears nothing and fills nothing otherwise', () => {
    const dates = { started_at: '2020-01-01', finished_at: '2020-02-01' };
    for (const status of ['on_hold', 'dropped', 'plan_to_watch', undefined] as const) expect(withStatusDates(dates, status, today)).toEqual(dates);
    expect(withStatusDates(empty, undefined, today)).toEqual(empty);
  });

  it('flags a finish before the start, and nothing else', () => {
    expect(datesProblem({ started_at: '2024-05-02', finished_at: '2024-05-01' })).toEqual({ path: 'finished_at', message: expect.any(String) });
    expect(datesProblem({ started_at: '2024-05-02', finished_at: '2024-05-02' })).toBeUndefined();
    expect(datesProblem({ started_at: null, finished_at: '2024-05-01' })).toBeUndefined();
  });

  it("uses today's UTC date", () => {
    expect(utcToday(new Date('2026-11-21T23:59:59.999-05:00'))).toBe('2026-11-22');
  });
});

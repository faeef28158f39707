import { scoreFromStars, scoreFromTenPoints } from './scores';

describe('scoreFromStars (stars × 2, rounded up)', () => {
  it.each([
    ['0.5', 1],
    ['1', 2],
    ['2.5', 5],
    ['3.5', 7],
    ['3.75', 8],
    ['4.25', 9],
    ['4.5', 9],
    ['5', 10],
    [4, 8],
  ])('%p stars → %p', (stars, score) => expect(scoreFromStars(stars, [])).toBe(score));

  it('reads empty and 0 (Goodreads: not rated) as no score, without warning', () => {
    const warnings: string[] = [];
    expect([
      scoreFromStars('', warnings),
      scoreFromStars('0', warnings),
      scoreFromStars(null, warnings),
    ]).toEqual([null, null, null]);
    expect(warnings).toEqual([]);
  });

  it('drops a rating outside 0–5 with a warning', () => {
    const warnings: string[] = [];
    expect([
      scoreFromStars('6', warnings),
      scoreFromStars('-1', warnings),
      scoreFromStars('four', warnings),
    ]).toEqual([null, null, null]);
    expect(warnings).toHaveLength(3);
  });
});

describe('scoreFromTenPoints', () => {
  it('takes 1–10 integers as they are and drops anything else with a warning', () => {
    const warnings: string[] = [];
    expect([1, '7', 10, '0', 11, '7.5', ''].map((points) => scoreFromTenPoints(points, warnings))).toEqual([
      1,
      7,
      10,
      null,
      null,
      null,
      null,
    ]);
    expect(warnings).toHaveLength(3);
  });
});

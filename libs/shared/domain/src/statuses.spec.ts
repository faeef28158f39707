import { MOVIES, BOOKS, statusLabelsOf, ALL_STATUS_LABELS } from './categories';
import { listStatusFromWords } from './statuses';

describe('listStatusFromWords', () => {
  it('takes the stored value or the category label, in any case and spacing', () => {
    expect(listStatusFromWords('completed', statusLabelsOf(MOVIES))).toBe('completed');
    expect(listStatusFromWords('watched', statusLabelsOf(MOVIES))).toBe('completed');
    expect(listStatusFromWords('Want to watch', statusLabelsOf(MOVIES))).toBe('plan_to_watch');
    expect(listStatusFromWords('want-to-read', statusLabelsOf(BOOKS))).toBe('plan_to_watch');
    expect(listStatusFromWords('PLAN_TO_WATCH', statusLabelsOf(BOOKS))).toBe('plan_to_watch');
  });

  it("takes another category's label when it means one status everywhere, and refuses what means none", () => {
    expect(listStatusFromWords('watched', statusLabelsOf(BOOKS), ALL_STATUS_LABELS)).toBe('completed');
    expect(listStatusFromWords('finished reading soon', statusLabelsOf(BOOKS), ALL_STATUS_LABELS)).toBeUndefined();
  });
});

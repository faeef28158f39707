import type { HistoryEvent } from '../domain/list-history';
import { withLegacyHistory } from './003-legacy-history';

describe('withLegacyHistory', () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
  const event = (ms: number, to: number): HistoryEvent => ({ at: at(ms), field: 'progress', from: to - 1, to });

  it('merges both newest first, keeps each event once and drops events older than the entry', () => {
    const history = [event(30, 3), event(10, 1)];
    const legacy = [event(20, 2), event(10, 1), event(-5, 9)];
    expect(withLegacyHistory(history, legacy, at(0)).map((e) => e.to)).toEqual([3, 2, 1]);
  });

  it('returns the entry history as it is when nothing was kept apart', () => {
    const history = [event(30, 3), event(10, 1)];
    expect(withLegacyHistory(history, [], at(0))).toEqual(history);
  });
});

import { historyEvents, withLegacyHistory, type HistoryEvent } from './list-history';

describe('historyEvents', () => {
  const at = new Date('2026-01-01T00:00:00Z');

  it('records the fields an addition sets', () => {
    expect(historyEvents(null, { status: 'watching', score: null, progress: 3 }, at)).toEqual([
      { at, field: 'status', from: null, to: 'watching' },
      { at, field: 'progress', from: null, to: 3 },
    ]);
  });

  it('records only what changed, from and to', () => {
    expect(historyEvents({ status: 'watching', score: 5, progress: 3 }, { status: 'watching', score: null, progress: 4 }, at)).toEqual([
      { at, field: 'score', from: 5, to: null },
      { at, field: 'progress', from: 3, to: 4 },
    ]);
    expect(historyEvents({ status: 'dropped', score: 1, progress: 1 }, { status: 'dropped', score: 1, progress: 1 }, at)).toEqual([]);
  });
});

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

import { historyEvents } from './list-history';

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

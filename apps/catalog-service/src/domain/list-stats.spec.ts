import { countersOf, statsDelta, toListStats, type StatsFields } from './list-stats';

const entry = (fields: Partial<StatsFields>): StatsFields => ({ status: 'plan_to_watch', score: null, progress: null, finished_at: null, ...fields });

describe('list statistics counters', () => {
  it('moves an entry between statuses, scores and years by a delta', () => {
    const before = entry({ status: 'completed', score: 7, progress: 10, finished_at: '2024-05-01' });
    const after = entry({ status: 'watching', score: 9, progress: 12, finished_at: '2024-05-01' });
    expect(statsDelta(before, after)).toEqual({ 'status.completed': -1, 'status.watching': 1, 'score.7': -1, 'score.9': 1, progress: 2, 'completed.2024': -1 });
    expect(statsDelta(after, after)).toEqual({});
  });

  it('renders every status and score key, the mean to one decimal, null without scores', () => {
    const stats = toListStats(
      countersOf([
        entry({ status: 'completed', score: 8, finished_at: '2025-01-02', progress: 100 }),
        entry({ status: 'completed', score: 7, finished_at: '2023-01-02' }),
        entry({ status: 'completed', score: 7, finished_at: null }),
        entry({ status: 'dropped', progress: 5 }),
      ]),
    );
    expect(stats).toEqual({
      total: 4,
      by_status: { watching: 0, completed: 3, on_hold: 0, dropped: 1, plan_to_watch: 0 },
      mean_score: 7.3,
      score_histogram: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0, '7': 2, '8': 1, '9': 0, '10': 0 },
      progress_total: 105,
      completed_by_year: { '2023': 1, '2025': 1 },
    });
    expect(toListStats({}).mean_score).toBeNull();
  });
});

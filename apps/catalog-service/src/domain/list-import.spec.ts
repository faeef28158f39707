import { importOutcome } from './list-import';

const row = { status: 'completed', score: 8, progress: null, notes: null, started_at: null, finished_at: '2024-01-02' } as const;

describe('importOutcome', () => {
  it('adds an entry that is not on the list, in either mode', () => {
    expect(importOutcome(undefined, row, 'skip_existing')).toBe('added');
    expect(importOutcome(undefined, row, 'overwrite')).toBe('added');
  });

  it('reports an equal entry unchanged in either mode (a re-import changes nothing)', () => {
    expect(importOutcome({ ...row }, row, 'skip_existing')).toBe('unchanged');
    expect(importOutcome({ ...row }, row, 'overwrite')).toBe('unchanged');
  });

  it('replaces a different entry with overwrite and keeps it with skip_existing', () => {
    expect(importOutcome({ ...row, score: 3 }, row, 'overwrite')).toBe('updated');
    expect(importOutcome({ ...row, notes: 'mine' }, row, 'skip_existing')).toBe('skipped');
  });
});

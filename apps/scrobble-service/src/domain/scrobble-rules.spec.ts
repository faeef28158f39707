import { decide } from './scrobble-rules';
import type { ScrobbleEvent } from './scrobble-event';

const movie = (patch: Partial<ScrobbleEvent> = {}): ScrobbleEvent => ({
  kind: 'stop',
  media: 'movie',
  title: 'The Matrix',
  year: 1999,
  showTitle: null,
  season: null,
  number: null,
  ids: {},
  episodeIds: {},
  progress: null,
  user: 'alice',
  eventId: null,
  ...patch,
});
const hook = { usernames: [] as string[], threshold: 90 };

describe('the scrobble rules', () => {
  it('counts a stop at or above the threshold as a play, and below it as ignored', () => {
    expect(decide(movie({ progress: 0.9 }), hook)).toEqual({ action: 'play' });
    expect(decide(movie({ progress: 0.89 }), hook)).toMatchObject({ action: 'ignore' });
    expect(decide(movie({ progress: 0.6 }), { ...hook, threshold: 50 })).toEqual({ action: 'play' });
  });

  it("counts a server's played verdict whatever the position", () => {
    expect(decide(movie({ kind: 'played', progress: 0.1 }), hook)).toEqual({ action: 'play' });
  });

  it('turns a start into watching and ignores pauses, unknown positions and other events', () => {
    expect(decide(movie({ kind: 'start' }), hook)).toEqual({ action: 'start' });
    expect(decide(movie({ kind: 'pause' }), hook)).toMatchObject({ action: 'ignore', reason: 'a pause is not a play' });
    expect(decide(movie({ progress: null }), hook)).toMatchObject({ action: 'ignore' });
    expect(decide(movie({ kind: 'other' }), hook)).toMatchObject({ action: 'ignore' });
  });

  it('ignores events of users the hook does not follow, compared without case', () => {
    expect(decide(movie({ kind: 'played', user: 'Bob' }), { ...hook, usernames: ['alice'] })).toMatchObject({ action: 'ignore' });
    expect(decide(movie({ kind: 'played', user: 'ALICE' }), { ...hook, usernames: ['alice'] })).toEqual({ action: 'play' });
    expect(decide(movie({ kind: 'played', user: null }), { ...hook, usernames: ['alice'] })).toMatchObject({ action: 'ignore' });
  });

  it('ignores what names nothing to match', () => {
    expect(decide(movie({ kind: 'played', title: null }), hook)).toMatchObject({ action: 'ignore' });
    expect(decide(movie({ kind: 'played', media: 'other' }), hook)).toMatchObject({ action: 'ignore' });
  });
});

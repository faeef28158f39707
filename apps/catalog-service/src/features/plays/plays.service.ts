import { errors } from '@mt/errors';
import { nextCursor, resumeWalk, type CursorCodec } from '@mt/pagination';
import { toId, type Id } from '../../domain/ids';
import { utcToday } from '../../domain/list-dates';
import { DEFAULT_PLAYS_PAGE } from '../../domain/plays';
import { afterPlayRemoved, rewatched, REWATCH_FROM } from '../../domain/play-state';
import { tombstoneExpiry } from '../../domain/feed-retention';
import type { EpisodesStore } from '../../domain/ports/episodes-store.port';
import type { PlayPosition, PlaysScope, PlaysStore } from '../../domain/ports/plays-store.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { PlayDocument } from '../../domain/records/play.record';
import type { ListEntryResponse, ListEntryViews } from '../list/list-entry.response';
import type { ListWrites } from '../list/list-writes';
import { planPlays, type PlaysInput } from './play-targets';
import type { PlayRecorder } from './play-recorder';
import { toPlayResponse, type PlayResponse } from './play.response';

export interface PlaysServiceDeps {
  recorder: PlayRecorder;
  plays: PlaysStore;
  lists: ListStore;
  catalog: CatalogStore;
  /** Entries as answered, with their item's title, year and poster. */
  views: ListEntryViews;
  episodes: EpisodesStore | null;
  writes: ListWrites;
  cursors: CursorCodec;
  now?: () => Date;
}

export interface PlaysPage<T> {
  data: T[];
  limit: number;
  next_cursor: string | null;
}

const NOT_ON_LIST = 'entry not on your list';

/** A user's plays of one category: record, list, remove, rewatch; every write one list write (ListWrites). */
export class PlaysService {
  private readonly now: () => Date;

  constructor(private readonly deps: PlaysServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /**
   * Records the plays a request names for one item (`source`: `manual`, `import:<source>`, `scrobble:<server>`).
   * The whole request is checked before anything is written; the item joins the list when it is not on it.
   */
  async record(userId: string, itemId: string, input: PlaysInput, source: string): Promise<{ added: PlayResponse[]; existing: number }> {
    const id = toId(itemId);
    const work = await this.deps.recorder.work(id);
    if (!work) throw errors.notFound('catalog entry not found');
    const planned = planPlays(input, work, this.now());
    const recorded = await this.deps.writes.run(userId, (_session, stamp) => this.deps.recorder.record(stamp, { itemId: id, planned, source, sourceEventId: input.source_event_id }, work));
    return { added: await this.respond(recorded.added), existing: recorded.existing };
  }

  /** A scrobbler saw playback start: the item joins the list as `watching` when it is not on it; no play. */
  async start(userId: string, itemId: string): Promise<{ entry: ListEntryResponse; created: boolean }> {
    const id = toId(itemId);
    const { entry, created } = await this.deps.writes.run(userId, async (session, stamp) => {
      const current = await this.deps.lists.find(userId, id, session);
      return current ? { entry: current, created: false } : { entry: await this.deps.recorder.join(stamp, id, utcToday(stamp.at)), created: true };
    });
    return { entry: this.deps.views.one(entry), created };
  }

  /** One item's plays, newest `watched_at` first (unknown last), by cursor. */
  async list(userId: string, itemId: string, query: { cursor?: string; limit?: number }): Promise<PlaysPage<PlayResponse>> {
    const id = toId(itemId);
    if (!(await this.deps.lists.find(userId, id))) throw errors.notFound(NOT_ON_LIST);
    return this.page(userId, { itemId: id }, { item_id: itemId }, query, (plays) => this.respond(plays));
  }

  /** The diary: the user's plays across the category between two dates (inclusive), with their items. */
  async diary(userId: string, query: { from?: string; to?: string; cursor?: string; limit?: number }): Promise<PlaysPage<PlayResponse & { item: ListEntryResponse['item'] }>> {
    const scope: PlaysScope = {
      from: query.from ? new Date(`${query.from}T00:00:00.000Z`) : undefined,
      before: query.to ? new Date(new Date(`${query.to}T00:00:00.000Z`).getTime() + 86_400_000) : undefined,
    };
    return this.page(userId, scope, { from: query.from ?? null, to: query.to ?? null }, query, async (plays) => {
      const items = await this.deps.catalog.summaries([...new Map(plays.map((play) => [play.item_id.toHexString(), play.item_id])).values()]);
      return (await this.respond(plays)).map((play) => ({ ...play, item: this.deps.views.item(play.item_id, items.get(play.item_id)) }));
    });
  }

  async remove(userId: string, itemId: string, playId: string): Promise<{ message: string }> {
    const id = toId(itemId);
    const work = await this.deps.recorder.work(id);
    await this.deps.writes.run(userId, async (session, stamp) => {
      const entry = await this.deps.lists.find(userId, id, session);
      const removed = entry && (await this.deps.plays.delete(userId, id, toId(playId), session));
      if (!entry || !removed) throw errors.notFound('play not found');
      await this.deps.plays.recordDeletion({ user_id: userId, item_id: id, play_id: removed._id, seq: stamp.seq, changed_at: stamp.at, expires_at: tombstoneExpiry(stamp.at) }, session);
      // A play of a show removed from the catalog still counted nothing but itself: no episodes to compare.
      await this.deps.recorder.derive(stamp, entry, work ?? { year: null, episodic: false, episodes: [] }, afterPlayRemoved);
    });
    return { message: 'play removed' };
  }

  /** A new cycle of a completed or dropped entry (409 from any other status); earlier plays stay. */
  async rewatch(userId: string, itemId: string): Promise<ListEntryResponse> {
    const id = toId(itemId);
    const work = (await this.deps.recorder.work(id)) ?? { year: null, episodic: false, episodes: [] };
    const entry = await this.deps.writes.run(userId, async (session, stamp) => {
      const current = await this.deps.lists.find(userId, id, session);
      if (!current) throw errors.notFound(NOT_ON_LIST);
      if (!REWATCH_FROM.includes(current.status)) throw errors.conflict(`a rewatch starts from completed or dropped, not from ${current.status}`);
      const today = utcToday(stamp.at);
      return this.deps.recorder.derive(stamp, current, work, (state) => rewatched(state, today), { cycle: (current.cycle ?? 1) + 1, repeat_count: (current.repeat_count ?? 0) + 1 });
    });
    return this.deps.views.one(entry);
  }

  private async page<T>(userId: string, scope: PlaysScope, bound: Record<string, unknown>, query: { cursor?: string; limit?: number }, respond: (plays: PlayDocument[]) => Promise<T[]>): Promise<PlaysPage<T>> {
    const limit = query.limit ?? DEFAULT_PLAYS_PAGE;
    const walk = resumeWalk(this.deps.cursors, query.cursor ?? '', { owner: userId, ...bound }, this.now().getTime());
    const after = walk.after as PlayPosition | null;
    const rows = await this.deps.plays.page(userId, scope, after, limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    const position: PlayPosition | undefined = last && { watchedAt: last.watched_at?.getTime() ?? null, createdAt: last.created_at.getTime(), id: last._id.toHexString() };
    return { data: await respond(shown), limit, next_cursor: nextCursor(this.deps.cursors, { owner: userId, ...bound }, walk, position as never, rows.length > limit) };
  }

  /** Plays as answered: `episode` only while the episode it names is still in the catalog. */
  async respond(plays: readonly PlayDocument[]): Promise<PlayResponse[]> {
    const ids = plays.flatMap((play): Id[] => (play.episode_id ? [play.episode_id] : []));
    const present = new Set((await (this.deps.episodes?.byIds(ids) ?? Promise.resolve([]))).map((episode) => episode.id.toHexString()));
    return plays.map((play) => toPlayResponse(play, (id) => present.has(id)));
  }
}

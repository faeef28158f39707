import { errors } from '@mt/errors';
import { newId, type Id } from '../../domain/ids';
import { historyEvents } from '../../domain/list-history';
import { statsDelta } from '../../domain/list-stats';
import { utcToday } from '../../domain/list-dates';
import { episodeKey, playDate } from '../../domain/plays';
import { afterPlaysAdded, nextEpisodeSlot, regularPlayed, type PlayedEntryState, type PlayFacts } from '../../domain/play-state';
import type { CategoryDefinition } from '../../domain/categories';
import type { CatalogStore } from '../../domain/ports/catalog-store.port';
import type { EpisodesStore } from '../../domain/ports/episodes-store.port';
import type { ListOwnersStore } from '../../domain/ports/list-owners-store.port';
import type { ListStore } from '../../domain/ports/list-store.port';
import type { PlaysStore } from '../../domain/ports/plays-store.port';
import type { PlayDocument } from '../../domain/records/play.record';
import { listedItem, type ListEntryChange, type ListEntryDocument } from '../../domain/records/list-entry.record';
import type { ChangeStamp } from '../list/list-writes';
import type { PlannedPlay, PlayedWork } from './play-targets';

export interface PlayRecorderDeps {
  category: CategoryDefinition;
  plays: PlaysStore;
  lists: ListStore;
  owners: ListOwnersStore;
  catalog: CatalogStore;
  episodes: EpisodesStore | null;
}

/** The plays of one request for one item, validated and resolved (planPlays). */
export interface PlaysToRecord {
  itemId: Id;
  planned: readonly PlannedPlay[];
  source: string;
  sourceEventId?: string;
}

export interface Recorded {
  added: PlayDocument[];
  existing: number;
  entry: ListEntryDocument;
}

const VISIBLE: ReadonlyArray<keyof PlayedEntryState | 'cycle' | 'repeat_count'> = ['status', 'progress', 'started_at', 'finished_at', 'cycle', 'repeat_count'];

/**
 * Writes plays and what they move, inside one list write (ListWrites.run: the owner's document, a feed
 * position): the entry joins the list when missing, the plays are inserted, and the entry's status, dates,
 * progress and up-next fields are derived from the plays of its cycle — one transaction for all of it.
 */
export class PlayRecorder {
  constructor(private readonly deps: PlayRecorderDeps) {}

  /** The work as the rules need it: its year, and its episodes when the category is episodic. */
  async work(itemId: Id): Promise<PlayedWork | null> {
    const item = await this.deps.catalog.findById(itemId);
    if (!item) return null;
    return { year: item.year, episodic: Boolean(this.deps.category.episodic), episodes: (await this.deps.episodes?.allOf(itemId)) ?? [] };
  }

  async record(stamp: ChangeStamp, request: PlaysToRecord, work: PlayedWork): Promise<Recorded> {
    const { session, userId } = stamp;
    if (request.sourceEventId !== undefined) {
      const seen = await this.deps.plays.countOfEvent(userId, request.sourceEventId, session);
      if (seen) return { added: [], existing: seen, entry: await this.entryOrFail(userId, request.itemId, stamp) };
    }
    const entry = (await this.deps.lists.find(userId, request.itemId, session)) ?? (await this.join(stamp, request.itemId, null));
    const fresh = await this.withoutRepeats(userId, request.itemId, request.planned, stamp);
    const cycle = entry.cycle ?? 1;
    const added = fresh.map(
      (play, part): PlayDocument => ({
        _id: newId(),
        user_id: userId,
        item_id: request.itemId,
        episode_id: play.episodeId,
        season: play.season,
        number: play.number,
        watched_at: play.watchedAt,
        precision: play.precision,
        cycle,
        source: request.source,
        ...(request.sourceEventId !== undefined ? { source_event_id: request.sourceEventId, event_part: part } : {}),
        created_at: stamp.at,
        seq: stamp.seq,
      }),
    );
    if (!added.length) return { added, existing: request.planned.length, entry };
    await this.deps.plays.insertMany(added, session);
    const today = utcToday(stamp.at);
    const dates = added.map((play) => playDate(play.watched_at, today)).sort();
    const updated = await this.derive(stamp, entry, work, (state, facts) => afterPlaysAdded(state, dates, facts));
    return { added, existing: request.planned.length - added.length, entry: updated };
  }

  /**
   * Adds the item to the user's list as `watching` (a 404 when the item is gone); `startedAt` null leaves the
   * start to the plays being written (their first date).
   */
  async join(stamp: ChangeStamp, itemId: Id, startedAt: string | null): Promise<ListEntryDocument> {
    const item = await this.deps.catalog.claimForList(itemId, stamp.session);
    if (!item) throw errors.notFound('catalog entry not found');
    const fields = { status: 'watching' as const, score: null, progress: null, notes: null, started_at: startedAt, finished_at: null };
    const doc = await this.deps.lists.insertNew(stamp.userId, listedItem(item), fields, stamp.at, stamp.seq, historyEvents(null, fields, stamp.at), stamp.session);
    await this.deps.owners.addToStats(stamp.userId, statsDelta(null, doc), stamp.session);
    return doc;
  }

  /**
   * Applies `rule` to the entry with the facts as they are after the write (the show's episodes, the plays of
   * the cycle), and writes the result: a visible change is a new revision at the write's feed position.
   */
  async derive(stamp: ChangeStamp, entry: ListEntryDocument, work: PlayedWork, rule: (state: PlayedEntryState, facts: PlayFacts) => PlayedEntryState, extra: Partial<ListEntryChange> = {}): Promise<ListEntryDocument> {
    const { session, userId } = stamp;
    const cycle = extra.cycle ?? entry.cycle ?? 1;
    const played = regularPlayed(await this.deps.plays.ofCycle(userId, entry.item_id, cycle, session));
    const facts: PlayFacts = { episodic: work.episodic, episodes: work.episodes, playedInCycle: played, today: utcToday(stamp.at) };
    const state = rule({ status: entry.status, progress: entry.progress, started_at: entry.started_at, finished_at: entry.finished_at }, facts);
    const next = work.episodic ? nextEpisodeSlot(work.episodes, played) : null;
    const internal = { next_episode: next && { season: next.season, number: next.number }, last_played_at: await this.deps.plays.lastPlayedAt(userId, entry.item_id, session) };
    const after = { ...entry, ...state, ...extra };
    if (!VISIBLE.some((field) => after[field] !== entry[field])) {
      await this.deps.lists.setPlayState(userId, entry.item_id, internal, session);
      return { ...entry, ...internal };
    }
    const change: ListEntryChange = { ...state, ...extra, ...internal, updated_at: stamp.at, seq: stamp.seq };
    const written = await this.deps.lists.updateAtRevision(userId, entry.item_id, entry.rev, change, historyEvents(entry, after, stamp.at), session);
    // The owner's document serialises the user's writes: the revision read in this transaction cannot move.
    if (!written) throw errors.conflict('the entry changed while the plays were written; try again');
    await this.deps.owners.addToStats(userId, statsDelta(entry, written), session);
    return written;
  }

  /** Plays already recorded at the same instant of the same episode are not written twice (a repeated request, an import run again). */
  private async withoutRepeats(userId: string, itemId: Id, planned: readonly PlannedPlay[], stamp: ChangeStamp): Promise<PlannedPlay[]> {
    const instants = planned.flatMap((play) => (play.watchedAt ? [play.watchedAt] : []));
    const known = new Set((await this.deps.plays.atInstants(userId, itemId, instants, stamp.session)).map((play) => `${episodeKey(play.season, play.number)}@${play.watched_at?.getTime()}`));
    return planned.filter((play) => play.watchedAt === null || !known.has(`${episodeKey(play.season, play.number)}@${play.watchedAt.getTime()}`));
  }

  private async entryOrFail(userId: string, itemId: Id, stamp: ChangeStamp): Promise<ListEntryDocument> {
    const entry = await this.deps.lists.find(userId, itemId, stamp.session);
    if (!entry) throw errors.notFound('entry not on your list');
    return entry;
  }
}

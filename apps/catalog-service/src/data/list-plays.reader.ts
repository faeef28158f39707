import type { ShardingDeclaration } from '@mt/stores';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import type { Id } from '../domain/ids';
import type { PlayedTally, PlayTallies, Runtimes } from '../domain/play-stats';
import type { ExportedPlay, ExportPlaysReader, PlayStatsReader } from '../domain/ports/list-plays-reader.port';

interface TallyGroup {
  _id: { item_id: Id; episode_id: Id | null; season: number | null };
  plays: number;
}
interface MonthGroup {
  _id: { year: number; month: number };
  plays: number;
}

const runtimesOf = (docs: ReadonlyArray<{ _id: Id; runtime: unknown }>): Runtimes =>
  new Map(
    docs
      .filter((doc): doc is { _id: Id; runtime: number } => typeof doc.runtime === 'number' && doc.runtime > 0)
      .map((doc) => [doc._id.toHexString(), doc.runtime]),
  );

/** The stored play's members an export writes (the plays feature's PlayDocument). */
interface StoredPlay {
  item_id: Id;
  season: number | null;
  number: number | null;
  watched_at: Date | null;
  precision: ExportedPlay['precision'];
  cycle: number;
  source: string;
  created_at: Date;
}

const ORDER = { cycle: 1, watched_at: 1, created_at: 1, _id: 1 } as const;

/** A user's plays, by owner like the list they belong to: statistics and exports read one user's plays. */
export const PLAY_SHARDING: ShardingDeclaration = {
  collection: COLLECTIONS.plays,
  shardKey: { user_id: 1, item_id: 1 },
  scatterGather: ["a catalog entry merged or removed: its plays in every user's list (by `item_id`)"],
};

/**
 * What the list's features read of the `plays` collection, on its user index. Statistics: two groupings of
 * the user's plays, by month and by what was played, run in the database (one row travels per month and per
 * work or episode played, not one per play). Exports: the plays of a batch of entries in one query.
 */
export class ListPlaysReader implements PlayStatsReader, ExportPlaysReader {
  constructor(
    private readonly db: CatalogDatabase,
    /** The work's own field holding its runtime in minutes, when the category has one. */
    private readonly runtimeField: string | null,
  ) {}

  async tallies(userId: string): Promise<PlayTallies> {
    const plays = this.db.collection(COLLECTIONS.plays);
    const [months, played] = await Promise.all([
      plays
        .aggregate<MonthGroup>([
          { $match: { user_id: userId, watched_at: { $ne: null } } },
          { $group: { _id: { year: { $year: '$watched_at' }, month: { $month: '$watched_at' } }, plays: { $sum: 1 } } },
        ])
        .toArray(),
      plays
        .aggregate<TallyGroup>([
          { $match: { user_id: userId } },
          { $group: { _id: { item_id: '$item_id', episode_id: '$episode_id', season: '$season' }, plays: { $sum: 1 } } },
        ])
        .toArray(),
    ]);
    const month = (group: MonthGroup) => `${String(group._id.year).padStart(4, '0')}-${String(group._id.month).padStart(2, '0')}`;
    return {
      byMonth: Object.fromEntries(months.map((group) => [month(group), group.plays])),
      byPlayed: played.map((group): PlayedTally => ({ itemId: group._id.item_id, episodeId: group._id.episode_id ?? null, season: group._id.season ?? null, plays: group.plays })),
    };
  }

  async workRuntimes(itemIds: readonly Id[]): Promise<Runtimes> {
    if (this.runtimeField === null || itemIds.length === 0) return new Map();
    const field = this.runtimeField;
    const docs = await this.db
      .collection<{ _id: Id; own?: Record<string, unknown> }>(COLLECTIONS.entries)
      .find({ _id: { $in: [...itemIds] } }, { projection: { [`own.${field}`]: 1 } })
      .toArray();
    return runtimesOf(docs.map((doc) => ({ _id: doc._id, runtime: doc.own?.[field] })));
  }

  async ofItems(userId: string, itemIds: readonly Id[], session?: Session): Promise<Map<string, ExportedPlay[]>> {
    const byItem = new Map<string, ExportedPlay[]>();
    if (itemIds.length === 0) return byItem;
    const plays = this.db
      .collection<StoredPlay>(COLLECTIONS.plays)
      .find({ user_id: userId, item_id: { $in: [...itemIds] } } as never, { projection: { _id: 0, item_id: 1, season: 1, number: 1, watched_at: 1, precision: 1, cycle: 1, source: 1 }, session })
      .sort(ORDER);
    for await (const play of plays) {
      const key = play.item_id.toHexString();
      const list = byItem.get(key) ?? [];
      list.push({ season: play.season, number: play.number, watched_at: play.watched_at?.toISOString() ?? null, precision: play.precision, cycle: play.cycle, source: play.source });
      byItem.set(key, list);
    }
    return byItem;
  }

  async episodeRuntimes(episodeIds: readonly Id[]): Promise<Runtimes> {
    if (episodeIds.length === 0) return new Map();
    const docs = await this.db
      .collection<{ _id: Id; runtime_minutes?: unknown }>(COLLECTIONS.episodes)
      .find({ _id: { $in: [...episodeIds] } }, { projection: { runtime_minutes: 1 } })
      .toArray();
    return runtimesOf(docs.map((doc) => ({ _id: doc._id, runtime: doc.runtime_minutes })));
  }
}

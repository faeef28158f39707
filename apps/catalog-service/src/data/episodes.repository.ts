import { mongo } from 'mongoose';
import { externalKeysOf } from '@mt/domain';
import type { ShardingDeclaration } from '@mt/stores';
import type { Session } from './atomic';
import { COLLECTIONS, type CatalogDatabase } from './database';
import type { Id } from '../domain/ids';
import type { Episode, EpisodeInput } from '../domain/episodes';
import type { EpisodesStore } from '../domain/ports/episodes-store.port';

/**
 * One document per episode. `external_keys` (`key:value`) serves the scrobblers' lookups; it is absent,
 * never `[]`, when the episode has none.
 */
interface EpisodeDocument {
  _id: mongo.ObjectId;
  show_id: mongo.ObjectId;
  season: number;
  number: number;
  title: string | null;
  air_date: string | null;
  runtime_minutes: number | null;
  external_ids: Record<string, string>;
  external_keys?: string[];
}

export const EPISODE_INDEXES: mongo.IndexDescription[] = [
  // One episode per (show, season, number): two writers of one season meet here, and the listing walks it.
  { name: 'show_season_number_unique', key: { show_id: 1, season: 1, number: 1 }, unique: true },
  { name: 'external_keys', key: { external_keys: 1 }, partialFilterExpression: { external_keys: { $exists: true } } },
];

/**
 * Unsharded: episodes belong to the catalog (read with their show, written with the unsharded entries), and
 * an episode's external ids are looked up across all shows.
 */
export const EPISODE_SHARDING: ShardingDeclaration = { collection: COLLECTIONS.episodes, unsharded: 'part of the unsharded catalog, looked up by external id across all shows' };

const toEpisode = (doc: EpisodeDocument): Episode => ({
  id: doc._id,
  showId: doc.show_id,
  season: doc.season,
  number: doc.number,
  title: doc.title,
  airDate: doc.air_date,
  runtimeMinutes: doc.runtime_minutes,
  externalIds: doc.external_ids ?? {},
});

function episodeFields(input: EpisodeInput): Omit<EpisodeDocument, '_id' | 'show_id' | 'season' | 'number' | 'external_keys'> {
  return { title: input.title ?? null, air_date: input.air_date ?? null, runtime_minutes: input.runtime_minutes ?? null, external_ids: { ...(input.external_ids ?? {}) } };
}

const ORDER = { season: 1, number: 1 } as const;

export class EpisodesRepository implements EpisodesStore {
  constructor(private readonly db: CatalogDatabase) {}

  private get episodes() {
    return this.db.collection<EpisodeDocument>(COLLECTIONS.episodes);
  }

  async ensureIndexes(): Promise<void> {
    await this.episodes.createIndexes(EPISODE_INDEXES);
  }

  async page(showId: Id, season: number | undefined, window: { skip: number; limit: number }): Promise<Episode[]> {
    const docs = await this.episodes.find(season === undefined ? { show_id: showId } : { show_id: showId, season }).sort(ORDER).skip(window.skip).limit(window.limit).toArray();
    return docs.map(toEpisode);
  }

  count(showId: Id, season: number | undefined): Promise<number> {
    return this.episodes.countDocuments(season === undefined ? { show_id: showId } : { show_id: showId, season });
  }

  async allOf(showId: Id, session?: Session): Promise<Episode[]> {
    return (await this.episodes.find({ show_id: showId }, { session }).sort(ORDER).toArray()).map(toEpisode);
  }

  async byIds(ids: readonly Id[], session?: Session): Promise<Episode[]> {
    if (!ids.length) return [];
    return (await this.episodes.find({ _id: { $in: [...ids] } }, { session }).toArray()).map(toEpisode);
  }

  async atPlaces(places: ReadonlyArray<{ showId: Id; season: number; number: number }>): Promise<Episode[]> {
    if (!places.length) return [];
    const docs = await this.episodes.find({ $or: places.map((place) => ({ show_id: place.showId, season: place.season, number: place.number })) }).toArray();
    return docs.map(toEpisode);
  }

  async find(showId: Id, season: number, number: number, session?: Session): Promise<Episode | null> {
    const doc = await this.episodes.findOne({ show_id: showId, season, number }, { session });
    return doc && toEpisode(doc);
  }

  async airedCounts(showIds: readonly Id[], today: string): Promise<Map<string, number>> {
    if (!showIds.length) return new Map();
    const rows = await this.episodes
      .aggregate<{ _id: mongo.ObjectId; aired: number }>([
        { $match: { show_id: { $in: [...showIds] }, season: { $gt: 0 }, air_date: { $ne: null, $lte: today } } },
        { $group: { _id: '$show_id', aired: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(rows.map((row) => [row._id.toHexString(), row.aired]));
  }

  async findByExternalKey(key: string): Promise<Episode | null> {
    const doc = await this.episodes.findOne({ external_keys: key }, { sort: { _id: 1 } });
    return doc && toEpisode(doc);
  }

  async replaceSeason(showId: Id, season: number, episodes: readonly EpisodeInput[], session: Session): Promise<Episode[]> {
    const current = await this.episodes.find({ show_id: showId, season }, { session, projection: { _id: 1, number: 1 } }).toArray();
    const idOf = new Map(current.map((doc) => [doc.number, doc._id]));
    const staying = new Set(episodes.map((episode) => episode.number));
    const gone = current.filter((doc) => !staying.has(doc.number)).map((doc) => doc._id);
    const writes: mongo.AnyBulkWriteOperation<EpisodeDocument>[] = episodes.map((input) => {
      const fields = episodeFields(input);
      const keys = externalKeysOf(fields.external_ids);
      const set = { ...fields, ...(keys.length ? { external_keys: keys } : {}) };
      return {
        updateOne: {
          filter: { show_id: showId, season, number: input.number },
          update: { $set: set, ...(keys.length ? {} : { $unset: { external_keys: '' } }), $setOnInsert: { _id: idOf.get(input.number) ?? new mongo.ObjectId() } },
          upsert: true,
        },
      };
    });
    if (gone.length) writes.push({ deleteMany: { filter: { _id: { $in: gone } } } });
    if (writes.length) await this.episodes.bulkWrite(writes, { session, ordered: true });
    return (await this.episodes.find({ show_id: showId, season }, { session }).sort(ORDER).toArray()).map(toEpisode);
  }

  async mergeShow(from: Id, into: Id, session: Session): Promise<Map<string, Id>> {
    const [moving, staying] = await Promise.all([
      this.episodes.find({ show_id: from }, { session, projection: { _id: 1, season: 1, number: 1 } }).toArray(),
      this.episodes.find({ show_id: into }, { session, projection: { _id: 1, season: 1, number: 1 } }).toArray(),
    ]);
    const kept = new Map(staying.map((doc) => [`${doc.season}:${doc.number}`, doc._id]));
    const replaced = new Map<string, Id>();
    for (const doc of moving) {
      const survivor = kept.get(`${doc.season}:${doc.number}`);
      if (survivor) replaced.set(doc._id.toHexString(), survivor);
    }
    const replacedIds = moving.filter((doc) => replaced.has(doc._id.toHexString())).map((doc) => doc._id);
    if (replacedIds.length) await this.episodes.deleteMany({ _id: { $in: replacedIds } }, { session });
    await this.episodes.updateMany({ show_id: from }, { $set: { show_id: into } }, { session });
    return replaced;
  }

  async deleteOfShow(showId: Id, session: Session): Promise<void> {
    await this.episodes.deleteMany({ show_id: showId }, { session });
  }
}

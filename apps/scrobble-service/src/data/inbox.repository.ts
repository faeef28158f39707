import { mongo } from 'mongoose';
import type { InboxEntry, ScrobbleCategory } from '../domain/ports';
import type { MediaIds, Server } from '../domain/scrobble-event';
import { COLLECTIONS, objectIdOf, type ScrobbleDatabase } from './database';

interface InboxDocument {
  _id: mongo.ObjectId;
  user_id: string;
  hook_id: string;
  server: Server;
  media_key: string;
  subject_key: string;
  category: ScrobbleCategory;
  title: string | null;
  year: number | null;
  season: number | null;
  number: number | null;
  external_ids: MediaIds;
  first_seen_at: Date;
  last_seen_at: Date;
  count: number;
  event_ids: string[];
}

/** Waiting plays kept per entry (the newest): `count` still counts them all. */
export const INBOX_WAITING_PLAYS = 100;

const toEntry = (doc: InboxDocument): InboxEntry => ({
  id: doc._id.toHexString(),
  hookId: doc.hook_id,
  server: doc.server,
  subjectKey: doc.subject_key,
  category: doc.category,
  title: doc.title,
  year: doc.year,
  season: doc.season,
  number: doc.number,
  externalIds: doc.external_ids,
  firstSeenAt: doc.first_seen_at,
  lastSeenAt: doc.last_seen_at,
  count: doc.count,
  eventIds: doc.event_ids,
});

export class InboxRepository {
  constructor(private readonly db: ScrobbleDatabase) {}

  private get inbox() {
    return this.db.collection<InboxDocument>(COLLECTIONS.inbox);
  }

  async ensureIndexes(): Promise<void> {
    await this.inbox.createIndex({ hook_id: 1, media_key: 1 }, { unique: true, name: 'hook_media' });
    await this.inbox.createIndex({ user_id: 1, last_seen_at: -1 }, { name: 'user_last_seen' });
  }

  /** One entry per hook and media: a further unmatched play of it adds to its count and its waiting plays. */
  async add(
    input: Omit<InboxEntry, 'id' | 'firstSeenAt' | 'lastSeenAt' | 'count' | 'eventIds'> & { userId: string; mediaKey: string; eventId: string },
    now: Date,
  ): Promise<void> {
    await this.inbox.updateOne(
      { hook_id: input.hookId, media_key: input.mediaKey },
      {
        $setOnInsert: {
          user_id: input.userId,
          server: input.server,
          subject_key: input.subjectKey,
          category: input.category,
          title: input.title,
          year: input.year,
          season: input.season,
          number: input.number,
          external_ids: input.externalIds,
          first_seen_at: now,
        },
        $set: { last_seen_at: now },
        $inc: { count: 1 },
        $push: { event_ids: { $each: [input.eventId], $slice: -INBOX_WAITING_PLAYS } },
      },
      { upsert: true },
    );
  }

  /** The user's entries, most recently seen first (bounded: one per hook and media). */
  async list(userId: string, limit: number): Promise<InboxEntry[]> {
    return (await this.inbox.find({ user_id: userId }).sort({ last_seen_at: -1, _id: -1 }).limit(limit).toArray()).map(toEntry);
  }

  async get(userId: string, entryId: string): Promise<InboxEntry | null> {
    const id = objectIdOf(entryId);
    const doc = id ? await this.inbox.findOne({ _id: id, user_id: userId }) : null;
    return doc ? toEntry(doc) : null;
  }

  /** Removes the entry unless plays arrived after `seen` (those keep it, with only themselves waiting). */
  async removeResolved(entry: InboxEntry): Promise<void> {
    const id = objectIdOf(entry.id) as mongo.ObjectId;
    const removed = await this.inbox.deleteOne({ _id: id, count: entry.count });
    if (removed.deletedCount === 0) {
      await this.inbox.updateOne({ _id: id }, { $pull: { event_ids: { $in: entry.eventIds } }, $inc: { count: -entry.count } });
    }
  }

  async delete(userId: string, entryId: string): Promise<boolean> {
    const id = objectIdOf(entryId);
    return id ? (await this.inbox.deleteOne({ _id: id, user_id: userId })).deletedCount === 1 : false;
  }

  async deleteUser(userId: string): Promise<void> {
    await this.inbox.deleteMany({ user_id: userId });
  }
}

import { isDuplicateKeyError } from '@mt/stores';
import { mongo } from 'mongoose';
import type { EventAction, EventStatus, StoredEvent } from '../domain/ports';
import type { ScrobbleEvent, Server } from '../domain/scrobble-event';
import { COLLECTIONS, objectIdOf, type ScrobbleDatabase } from './database';

interface EventDocument {
  _id: mongo.ObjectId;
  hook_id: string;
  user_id: string;
  server: Server;
  action: EventAction;
  event: ScrobbleEvent;
  media_key: string;
  subject_key: string;
  /** The sender's event id, or a digest of the server's JSON: the same delivery twice has the same key. */
  delivery_key: string;
  status: EventStatus;
  received_at: Date;
  item_id?: string;
  play_id?: string | null;
  /** Set once the event is final: a TTL index removes it then (unmatched ones wait in the inbox). */
  expire_at?: Date;
}

/** How long a finished event (and with it its delivery key) is kept. */
const FINISHED_EVENT_TTL_S = 30 * 24 * 3600;

const toEvent = (doc: EventDocument): StoredEvent => ({
  id: doc._id.toHexString(),
  hookId: doc.hook_id,
  userId: doc.user_id,
  server: doc.server,
  action: doc.action,
  event: doc.event,
  mediaKey: doc.media_key,
  subjectKey: doc.subject_key,
  status: doc.status,
  receivedAt: doc.received_at,
});

export class EventsRepository {
  constructor(private readonly db: ScrobbleDatabase) {}

  private get events() {
    return this.db.collection<EventDocument>(COLLECTIONS.events);
  }

  async ensureIndexes(): Promise<void> {
    await this.events.createIndex({ hook_id: 1, delivery_key: 1 }, { unique: true, name: 'hook_delivery' });
    await this.events.createIndex({ status: 1, received_at: 1 }, { name: 'status_received' });
    await this.events.createIndex({ user_id: 1 }, { name: 'user' });
    await this.events.createIndex({ expire_at: 1 }, { expireAfterSeconds: 0, name: 'expire_at' });
  }

  /** Stores an accepted event as pending; null when the same delivery was stored before. */
  async insert(input: Omit<StoredEvent, 'id' | 'status'> & { deliveryKey: string }): Promise<StoredEvent | null> {
    const doc: EventDocument = {
      _id: new mongo.ObjectId(),
      hook_id: input.hookId,
      user_id: input.userId,
      server: input.server,
      action: input.action,
      event: input.event,
      media_key: input.mediaKey,
      subject_key: input.subjectKey,
      delivery_key: input.deliveryKey,
      status: 'pending',
      received_at: input.receivedAt,
    };
    try {
      await this.events.insertOne(doc);
      return toEvent(doc);
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /** Forgets a stored event that turned out to be a duplicate play (its delivery key must not block a retry). */
  async remove(eventId: string): Promise<void> {
    const id = objectIdOf(eventId);
    if (id) await this.events.deleteOne({ _id: id });
  }

  async get(eventId: string): Promise<StoredEvent | null> {
    const id = objectIdOf(eventId);
    const doc = id ? await this.events.findOne({ _id: id }) : null;
    return doc ? toEvent(doc) : null;
  }

  async getMany(userId: string, eventIds: readonly string[]): Promise<StoredEvent[]> {
    const ids = eventIds.map(objectIdOf).filter((id): id is mongo.ObjectId => id !== null);
    return (await this.events.find({ _id: { $in: ids }, user_id: userId }).toArray()).map(toEvent);
  }

  async finish(eventId: string, status: Exclude<EventStatus, 'pending'>, result: { itemId?: string; playId?: string | null } = {}, now = new Date()): Promise<void> {
    const id = objectIdOf(eventId);
    if (!id) return;
    const expireAt = status === 'unmatched' ? undefined : new Date(now.getTime() + FINISHED_EVENT_TTL_S * 1000);
    await this.events.updateOne(
      { _id: id },
      { $set: { status, ...(result.itemId ? { item_id: result.itemId } : {}), ...(result.playId !== undefined ? { play_id: result.playId } : {}), ...(expireAt ? { expire_at: expireAt } : {}) } },
    );
  }

  /** Events still pending since before `olderThan`: their queue job may be lost (a Redis that lost its data). */
  async pendingIds(olderThan: Date, limit: number): Promise<string[]> {
    return (await this.events.find({ status: 'pending', received_at: { $lt: olderThan } }, { projection: { _id: 1 } }).sort({ received_at: 1 }).limit(limit).toArray()).map((doc) =>
      doc._id.toHexString(),
    );
  }

  async deleteUser(userId: string): Promise<void> {
    await this.events.deleteMany({ user_id: userId });
  }
}

import { errors } from '@mt/errors';
import { mongo, type Connection } from 'mongoose';

/** The scrobble database's collections through the mongoose connection (native driver, no mongoose schemas). */
export class ScrobbleDatabase {
  constructor(readonly connection: Connection) {}

  collection<T extends mongo.Document>(name: string): mongo.Collection<T> {
    const db = this.connection.db;
    if (!db) throw errors.serviceUnavailable('database unavailable');
    return db.collection<T>(name);
  }
}

export const COLLECTIONS = {
  hooks: 'hooks',
  events: 'events',
  playGuards: 'play_guards',
  inbox: 'inbox',
  mappings: 'mappings',
} as const;

/** An id from a URL: a malformed one finds nothing (a 404), never a 500. */
export const objectIdOf = (id: string): mongo.ObjectId | null => (/^[0-9a-f]{24}$/i.test(id) ? new mongo.ObjectId(id) : null);

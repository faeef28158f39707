import { mongo } from 'mongoose';

/** The scrobble database's collections through the mongoose connection (MongoDatabase of `@mt/stores`, native driver, no mongoose schemas). */
export { MongoDatabase as ScrobbleDatabase } from '@mt/stores';

export const COLLECTIONS = {
  hooks: 'hooks',
  events: 'events',
  playGuards: 'play_guards',
  inbox: 'inbox',
  mappings: 'mappings',
} as const;

/** An id from a URL: a malformed one finds nothing (a 404), never a 500. */
export const objectIdOf = (id: string): mongo.ObjectId | null => (/^[0-9a-f]{24}$/i.test(id) ? new mongo.ObjectId(id) : null);

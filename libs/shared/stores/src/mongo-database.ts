import { errors } from '@mt/errors';
import type { Connection, mongo } from 'mongoose';

/**
 * Typed access to the collections of a mongoose connection's database, through the native driver (no
 * mongoose schemas): a service's repositories build their documents themselves. Each service's `data/`
 * layer names it for its own database and is its only user.
 */
export class MongoDatabase {
  /**
   * The driver builds a new collection object (its options resolved again) on every `db.collection()`;
   * repositories ask for one per statement, so they are kept per connected database.
   */
  private handles = new Map<string, mongo.Collection<mongo.Document>>();

  private handlesOf: mongo.Db | undefined;

  constructor(readonly connection: Connection) {}

  collection<T extends mongo.Document>(name: string): mongo.Collection<T> {
    const db = this.connection.db;
    // Requests are refused (503) until start-up has connected; this guards the window after a close.
    if (!db) throw errors.serviceUnavailable('database unavailable');
    if (this.handlesOf !== db) {
      this.handles = new Map();
      this.handlesOf = db;
    }
    let handle = this.handles.get(name);
    if (!handle) {
      handle = db.collection(name);
      this.handles.set(name, handle);
    }
    return handle as unknown as mongo.Collection<T>;
  }
}

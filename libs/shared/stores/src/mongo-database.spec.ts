import type { Connection } from 'mongoose';
import { MongoDatabase } from './mongo-database';

/** A connection whose database object can be swapped or removed, as a reconnect or a close does. */
function fakeConnection() {
  const databaseObject = () => {
    const made: string[] = [];
    return { made, collection: (name: string) => (made.push(name), { name, db: made }) };
  };
  const state = { db: databaseObject() as ReturnType<typeof databaseObject> | undefined };
  return { state, databaseObject, connection: state as unknown as Connection };
}

describe('MongoDatabase', () => {
  it('hands out one handle per collection while the database object stays the same', () => {
    const { state, connection } = fakeConnection();
    const db = new MongoDatabase(connection);
    expect(db.collection('entries')).toBe(db.collection('entries'));
    expect(db.collection('counters')).not.toBe(db.collection('entries'));
    expect(state.db?.made).toEqual(['entries', 'counters']);
  });

  it('builds new handles once the connection has another database object', () => {
    const { state, databaseObject, connection } = fakeConnection();
    const db = new MongoDatabase(connection);
    const first = db.collection('entries');
    state.db = databaseObject();
    const second = db.collection('entries');
    expect(second).not.toBe(first);
    expect(state.db.made).toEqual(['entries']);
  });

  it('refuses with 503 while the connection has no database', () => {
    const { state, connection } = fakeConnection();
    const db = new MongoDatabase(connection);
    state.db = undefined;
    expect(() => db.collection('entries')).toThrow(expect.objectContaining({ status: 503 }));
  });
});

import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';
import { backoffDelay, sleep } from './backoff';

export interface MongoOptions {
  url: string;
  dbName: string;
  logger: Logger;
  appName?: string;
}

/**
 * Bounded timeouts: an operation fails within ~2 s when MongoDB is gone (the caller answers 503)
 * instead of mongoose's default 30 s buffering / server selection. Server selection gets 1 s: an operation
 * cut mid-flight is retried once by the driver and selects again, and the whole must stay under 2 s.
 */
/** Pooled connections per MongoDB connection object (see TransactionRunner for why this matters). */
export const MONGO_MAX_POOL_SIZE = 20;

const CONNECTION_SETTINGS = {
  serverSelectionTimeoutMS: 1000,
  connectTimeoutMS: 2000,
  socketTimeoutMS: 20000,
  heartbeatFrequencyMS: 2000,
  maxPoolSize: MONGO_MAX_POOL_SIZE,
  bufferCommands: false,
  autoIndex: false,
  autoCreate: false,
} as const;

/** A connection object to register models on; `openMongo` connects it. */
export function createMongoConnection(): Connection {
  return mongoose.createConnection();
}

/** Connects, retrying with backoff until it succeeds or `signal` aborts (start-up never crashes on a late DB). */
export async function openMongo(connection: Connection, options: MongoOptions, signal?: AbortSignal): Promise<void> {
  const { url, dbName, logger } = options;
  connection.on('disconnected', () => {
    if (!closing.has(connection)) logger.warn({ db: dbName }, 'mongodb disconnected');
  });
  connection.on('reconnected', () => logger.info({ db: dbName }, 'mongodb reconnected'));
  for (let attempt = 1; !signal?.aborted; attempt++) {
    try {
      await connection.openUri(url, { ...CONNECTION_SETTINGS, dbName, appName: options.appName });
      logger.info({ db: dbName }, 'mongodb connected');
      return;
    } catch (error) {
      const delay = backoffDelay(attempt, 250, 3000);
      logger.warn({ db: dbName, attempt, retry_in_ms: delay, reason: (error as Error).message }, 'mongodb not reachable yet');
      await sleep(delay, signal);
    }
  }
}

export async function pingMongo(connection: Connection): Promise<void> {
  const db = connection.db;
  if (!db || connection.readyState !== 1) throw new Error('mongodb not connected');
  await db.admin().ping();
}

/** Connections being closed on purpose: their 'disconnected' event is not worth a warning. */
const closing = new WeakSet<Connection>();

export async function closeMongo(connection: Connection): Promise<void> {
  closing.add(connection);
  await connection.close().catch(() => connection.close(true));
}

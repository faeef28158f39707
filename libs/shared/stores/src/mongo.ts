import type { Connection, Mongoose } from 'mongoose';
import type { Logger } from 'pino';
import { backoffDelay, sleep } from './backoff';
import { connectionFailureReason, redactUrl, unreachableReporter } from './store-report';

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
  // Loaded on first use rather than imported: the gateway and the registry bundle this library but never open
  // MongoDB, and mongoose with its driver is a large share of a small process's memory (bench/README, "Single-process mode").
  const mongoose = require('mongoose') as Mongoose;
  return mongoose.createConnection();
}

/**
 * Connects, retrying with backoff until it succeeds or `signal` aborts (start-up never crashes on a late DB).
 * An unreachable MongoDB is named with its address and the driver's reason: at once, then at most every 5 s.
 */
export async function openMongo(connection: Connection, options: MongoOptions, signal?: AbortSignal): Promise<void> {
  const { url, dbName, logger } = options;
  const address = redactUrl(url);
  connection.on('disconnected', () => {
    if (!closing.has(connection)) logger.warn({ db: dbName }, 'mongodb disconnected');
  });
  connection.on('reconnected', () => logger.info({ db: dbName }, 'mongodb reconnected'));
  let reason = '';
  const report = unreachableReporter((progress) =>
    logger.warn({ address, db: dbName, reason, ...progress }, 'mongodb not reachable yet; retrying'),
  );
  for (let attempt = 1; !signal?.aborted; attempt++) {
    try {
      await connection.openUri(url, { ...CONNECTION_SETTINGS, dbName, appName: options.appName });
      logger.debug({ db: dbName }, 'mongodb connected');
      return;
    } catch (error) {
      reason = connectionFailureReason(error);
      report(attempt);
      await sleep(backoffDelay(attempt, 250, 3000), signal);
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

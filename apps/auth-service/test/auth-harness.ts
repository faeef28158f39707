import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { closeMongo, closeRedis, createMongoConnection, createRedis, openMongo, waitForRedis, type Redis } from '@mt/stores';
import { captureLogger, deleteRedisPrefix, dropTestDatabase, testDbName, testMongoUrl, testRedisPrefix, testRedisUrl } from '@mt/testing';
import type { Express } from 'express';
import { generateKeyPairSync } from 'node:crypto';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { createApp } from '../src/app';
import { createAuthModule, type AuthModule } from '../src/auth-module';
import { loadAuthConfig, type AuthConfig } from '../src/config';
import { loadJwtKeys } from '../src/jwt/key-store';
import { asJwtUser } from './identity-headers';
import { TEST_SECRET } from './identity-headers';

export interface AuthHarness {
  app: Express;
  auth: AuthModule;
  config: AuthConfig;
  connection: Connection;
  /** The service's Redis client (may point at a dead port when the test wants Redis down). */
  redis: Redis;
  /** A working Redis client for assertions, on the same namespace. */
  inspect: Redis;
  prefix: string;
  dbName: string;
  logLines: () => string[];
  close: () => Promise<void>;
}

export const testPrivateKeyPem = (): string =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

export interface HarnessOptions {
  /** The Redis URL the service uses (default: the test Redis). */
  redisUrl?: string;
  env?: Record<string, string>;
  /** Opens MongoDB with driver command monitoring, so a test can count the queries sent. */
  monitorCommands?: boolean;
}

/** A real auth app on its own MongoDB database and Redis namespace, started like main.ts does. */
export async function startAuthHarness(options: HarnessOptions = {}): Promise<AuthHarness> {
  const dbName = testDbName('auth');
  const prefix = testRedisPrefix('auth');
  const config = loadAuthConfig({
    INTERNAL_SECRET: TEST_SECRET,
    MONGO_URL: testMongoUrl(),
    MONGO_DB_NAME: dbName,
    REDIS_URL: options.redisUrl ?? testRedisUrl(),
    REDIS_KEY_PREFIX: prefix,
    JWT_PRIVATE_KEY: testPrivateKeyPem(),
    ...options.env,
  });
  const { logger, lines } = captureLogger('auth-service');
  const connection = createMongoConnection();
  if (options.monitorCommands) {
    await connection.openUri(config.MONGO_URL, { dbName, monitorCommands: true, bufferCommands: false, autoIndex: false, autoCreate: false });
  } else {
    await openMongo(connection, { url: config.MONGO_URL, dbName, logger });
  }
  const redis = createRedis({ url: config.REDIS_URL, logger, name: 'auth-test' });
  if (!options.redisUrl) await waitForRedis(redis);
  const inspect = createRedis({ url: testRedisUrl(), logger, name: 'auth-test-inspect' });
  await waitForRedis(inspect);
  const keys = loadJwtKeys(config, logger);
  const auth = createAuthModule({ config, logger, connection, redis, keys, relayTiming: { minAgeMs: 0 } });
  await auth.prepare();
  const lifecycle = createLifecycle();
  lifecycle.started = true;
  const app = createApp({ config, logger, lifecycle, metrics: createMetrics('auth-test'), connection, auth });
  return {
    app,
    auth,
    config,
    connection,
    redis,
    inspect,
    prefix,
    dbName,
    logLines: lines,
    close: async () => {
      await auth.relay.stop();
      await dropTestDatabase(dbName);
      await deleteRedisPrefix(prefix);
      await Promise.all([closeMongo(connection), closeRedis(redis), closeRedis(inspect)]);
    },
  };
}

let counter = 0;
/** Distinct, valid registration data for each call. */
export function newUserData(label = 'user') {
  counter += 1;
  const suffix = `${process.pid.toString(36)}${Date.now().toString(36)}${counter}`;
  return { username: `${label}_${suffix}`.slice(0, 32), email: `${label}.${suffix}@example.com`, password: `pass-${suffix}-secret` };
}

export interface RegisteredUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

export async function registerUser(app: Express, data = newUserData()): Promise<RegisteredUser> {
  const res = await request(app).post('/api/v1/auth/register').send(data).expect(201);
  return { id: res.body.id as string, username: data.username, email: data.email.toLowerCase(), password: data.password };
}

/** Creates a PAT for the user through the API (as the user's JWT would). */
export async function createPat(app: Express, userId: string, body: Record<string, unknown> = { name: `pat-${Date.now()}-${Math.random()}` }) {
  const res = await request(app).post('/api/v1/auth/tokens').set(asJwtUser(userId)).send(body).expect(201);
  return res.body as { id: string; token: string; name: string; scopes: string[]; prefix: string };
}

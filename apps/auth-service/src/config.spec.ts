import { availableParallelism } from 'node:os';
import { ConfigError } from '@mt/config';
import { defaultHashConcurrency, loadAuthConfig } from './config';

describe('auth config', () => {
  it('has the documented defaults', () => {
    expect(loadAuthConfig({ INTERNAL_SECRET: 'x'.repeat(32) })).toMatchObject({
      PORT: 3001,
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      MONGO_DB_NAME: 'auth',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: 'mt:',
      JWT_KEY_DIR: '.data/auth-keys',
      JWT_ISSUER: 'media-tracker',
      JWT_AUDIENCE: 'media-tracker-api',
      JWT_TTL_SECONDS: 3600,
      ARGON2_MEMORY_KIB: 19456,
      ARGON2_TIME_COST: 2,
      ARGON2_CONCURRENCY: Math.max(1, availableParallelism() - 1),
      OUTBOX_RELAY_INTERVAL_MS: 1000,
    });
  });

  it('refuses argon2 parameters below the OWASP minimum and names every bad variable', () => {
    try {
      loadAuthConfig({ INTERNAL_SECRET: 'short', ARGON2_MEMORY_KIB: '4096', ARGON2_TIME_COST: '1', JWT_TTL_SECONDS: '0' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]).sort();
      expect(problems).toEqual(['ARGON2_MEMORY_KIB', 'ARGON2_TIME_COST', 'INTERNAL_SECRET', 'JWT_TTL_SECONDS']);
    }
  });

  it('refuses both the inline key and the key file at once', () => {
    expect(() => loadAuthConfig({ INTERNAL_SECRET: 'x'.repeat(32), JWT_PRIVATE_KEY: 'a', JWT_PRIVATE_KEY_FILE: 'b' })).toThrow(/JWT_PRIVATE_KEY: set JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE/);
  });

  it('hashes on every core but one by default, and on one core with one', () => {
    expect([1, 2, 4, 16].map((cores) => defaultHashConcurrency(cores))).toEqual([1, 1, 3, 15]);
  });
});

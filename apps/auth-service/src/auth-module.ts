import { redisKeys } from '@mt/contracts';
import type { Logger } from '@mt/logging';
import type { Redis } from '@mt/stores';
import type { Connection } from 'mongoose';
import type { AuthConfig } from './config';
import { IntrospectionService } from './internal/introspection.service';
import { JwtSigner } from './jwt/jwt-signer';
import type { JwtKeySet } from './jwt/key-store';
import { LoginFailuresRepository } from './login/login-failures.repository';
import { LoginService } from './login/login.service';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxRepository } from './outbox/outbox.repository';
import { RedisMirrorRepository } from './outbox/redis-mirror.repository';
import { LastUsedThrottleRepository } from './tokens/last-used-throttle.repository';
import { TokensRepository } from './tokens/tokens.repository';
import { TokensService } from './tokens/tokens.service';
import { AccountEraser } from './users/account-eraser';
import { AdminClaimsRepository } from './users/admin-claims.repository';
import { AdminNames } from './users/admin-names';
import { AccountService } from './users/account.service';
import { PasswordHasher } from './users/password-hasher';
import { UsersRepository } from './users/users.repository';
import { RolesService } from './users/roles.service';
import { UsersService } from './users/users.service';

export interface AuthModuleDeps {
  config: AuthConfig;
  logger: Logger;
  connection: Connection;
  redis: Redis;
  keys: JwtKeySet;
  /** Tests shorten the relay's waits; production uses the defaults. */
  relayTiming?: { minAgeMs?: number };
}

/** Wires repositories → services once; both createApp and main.ts (start-up, relay) use the result. */
export function createAuthModule({ config, logger, connection, redis, keys, relayTiming }: AuthModuleDeps) {
  const prefixKeys = redisKeys(config.REDIS_KEY_PREFIX);
  const jwtTtlMs = config.JWT_TTL_SECONDS * 1000;

  const repositories = {
    users: new UsersRepository(connection),
    adminClaims: new AdminClaimsRepository(connection),
    tokens: new TokensRepository(connection),
    outbox: new OutboxRepository(connection),
    mirror: new RedisMirrorRepository(redis, prefixKeys, jwtTtlMs),
    loginFailures: new LoginFailuresRepository(redis, prefixKeys),
    lastUsed: new LastUsedThrottleRepository(redis, prefixKeys),
  };
  const hasher = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, concurrency: config.ARGON2_CONCURRENCY });
  const signer = new JwtSigner(keys, { issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, ttlSeconds: config.JWT_TTL_SECONDS });
  const adminNames = new AdminNames(repositories.adminClaims, repositories.users, config.ADMIN_USERNAMES);
  const eraser = new AccountEraser(repositories.users, repositories.tokens, repositories.outbox);
  const relay = new OutboxRelay({
    outbox: repositories.outbox,
    mirror: repositories.mirror,
    users: repositories.users,
    completeDeletion: (entry) => eraser.erase(entry),
    redis,
    logger,
    intervalMs: config.OUTBOX_RELAY_INTERVAL_MS,
    jwtTtlMs,
    ...relayTiming,
  });
  const roles = new RolesService(repositories.users, repositories.tokens, repositories.outbox, relay, adminNames);

  return {
    keys,
    hasher,
    signer,
    repositories,
    relay,
    users: new UsersService(repositories.users, hasher, adminNames),
    roles,
    account: new AccountService({ users: repositories.users, hasher, signer, outbox: repositories.outbox, relay, eraser }),
    login: new LoginService({ users: repositories.users, hasher, signer, failures: repositories.loginFailures, logger, adminNames }),
    tokens: new TokensService(repositories.tokens, repositories.users, repositories.outbox, relay),
    introspection: new IntrospectionService(repositories.tokens, repositories.users, repositories.lastUsed, logger),
    /** Start-up: indexes (autoIndex is off), admins checked against ADMIN_USERNAMES, the dummy hash for unknown-user logins. */
    async prepare(): Promise<void> {
      await Promise.all([repositories.users.ensureIndexes(), repositories.tokens.ensureIndexes(), repositories.outbox.ensureIndexes(), repositories.adminClaims.ensureIndexes()]);
      await roles.reconcileAdmins();
      await hasher.warmUp();
    },
  };
}

export type AuthModule = ReturnType<typeof createAuthModule>;

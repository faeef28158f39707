import type { Logger } from '@mt/logging';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { JWT_ALGORITHM } from '@mt/contracts';
import { AuthenticationUnavailableError } from './auth-outcome';
import type { JwksResponse } from './auth-service.client';

/** The only key shape the gateway accepts (libs/contracts `Jwks`): EC P-256 signing keys for ES256. */
const SigningJwkSchema = z.object({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().min(1),
  y: z.string().min(1),
  kid: z.string().min(1),
  alg: z.literal(JWT_ALGORITHM).optional(),
  use: z.literal('sig').optional(),
});

export interface JwksClientOptions {
  fetchJwks: () => Promise<JwksResponse>;
  logger: Logger;
  /** An unknown key id triggers a refetch at most this often, so forged `kid`s cannot hammer the auth service. */
  minRefetchIntervalMs?: number;
  /** Known keys are refreshed after this long (a removed key stops being accepted); stale keys are kept if that fails. */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * The public keys the auth service publishes, by key id. Kept instead of jose's `createRemoteJWKSet` (issue 13;
 * figures in bench/README.md "Libraries judged"): with jsonwebtoken it costs the same CPU per verification, but
 * it throws away the known keys when a periodic refresh fails, answers an unknown kid in its cool-down 401 even
 * when the last fetch failed (here: 503), and fetches the URL itself instead of through the auth-service client
 * (timeout, request id, logged refusals).
 */
export class JwksClient {
  private readonly fetchJwks: () => Promise<JwksResponse>;
  private readonly logger: Logger;
  private readonly minRefetchIntervalMs: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** Without any key nothing can be verified, so the first load is retried sooner. */
  private readonly firstLoadRetryMs: number;
  private keys = new Map<string, KeyObject>();
  private loadedAt: number | undefined;
  private lastAttemptAt: number | undefined;
  private lastAttemptFailed = false;
  private inFlight: Promise<void> | undefined;

  constructor({ fetchJwks, logger, minRefetchIntervalMs = 10_000, maxAgeMs = 10 * 60_000, now = Date.now }: JwksClientOptions) {
    this.fetchJwks = fetchJwks;
    this.logger = logger;
    this.minRefetchIntervalMs = minRefetchIntervalMs;
    this.maxAgeMs = maxAgeMs;
    this.now = now;
    this.firstLoadRetryMs = Math.min(minRefetchIntervalMs, 1000);
  }

  /** The public key for `kid`; undefined when the auth service does not publish it. */
  async getKey(kid: string): Promise<KeyObject | undefined> {
    if (this.loadedAt === undefined) {
      // Nothing known yet: without keys nothing can be decided.
      if (!this.mayRefetch(this.firstLoadRetryMs) && this.lastAttemptFailed) throw new AuthenticationUnavailableError('JWKS unavailable');
      await this.refresh();
    } else if (this.now() - this.loadedAt >= this.maxAgeMs && this.mayRefetch()) {
      await this.refresh().catch(() => this.logger.warn('JWKS refresh failed; keeping the known keys'));
    }
    const known = this.keys.get(kid);
    if (known) return known;
    if (this.mayRefetch()) {
      await this.refresh(); // a new key after a rotation; failure = cannot decide
      return this.keys.get(kid);
    }
    // Throttled: trust the last answer if it was a good one, otherwise we still cannot decide.
    if (this.lastAttemptFailed) throw new AuthenticationUnavailableError('JWKS unavailable');
    return undefined;
  }

  private mayRefetch(intervalMs = this.minRefetchIntervalMs): boolean {
    return this.lastAttemptAt === undefined || this.now() - this.lastAttemptAt >= intervalMs;
  }

  /** One fetch at a time; concurrent callers share it. */
  private refresh(): Promise<void> {
    this.inFlight ??= (async () => {
      this.lastAttemptAt = this.now();
      try {
        this.keys = this.toKeys(await this.fetchJwks());
        this.loadedAt = this.now();
        this.lastAttemptFailed = false;
      } catch (error) {
        this.lastAttemptFailed = true;
        throw error;
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  private toKeys(response: JwksResponse): Map<string, KeyObject> {
    const next = new Map<string, KeyObject>();
    for (const candidate of response.keys) {
      const jwk = SigningJwkSchema.safeParse(candidate);
      if (!jwk.success) {
        this.logger.warn('JWKS contains a key that is not an ES256 P-256 signing key; ignored');
        continue;
      }
      const { kty, crv, x, y } = jwk.data;
      try {
        next.set(jwk.data.kid, createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' }));
      } catch {
        this.logger.warn({ kid: jwk.data.kid }, 'JWKS key could not be imported; ignored');
      }
    }
    return next;
  }
}

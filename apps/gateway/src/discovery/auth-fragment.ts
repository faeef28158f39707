import { INTERNAL_PATHS, type OpenApiFragment } from '@mt/contracts';
import { INTERNAL_SECRET_HEADER } from '@mt/identity';
import type { Logger } from '@mt/logging';
import { isDeepStrictEqual } from 'node:util';
import { OpenApiFragmentSchema } from './discovery.schemas';

export interface AuthFragmentOptions {
  authUrl: string;
  internalSecret: string;
  logger: Logger;
  /** A fragment older than this is refetched in the background (the auth service may have been upgraded). */
  maxAgeMs?: number;
  /** After a failed fetch, the next try waits at least this long (an auth outage must not slow every request). */
  retryAfterFailureMs?: number;
  timeoutMs?: number;
}

export interface AuthFragmentState {
  /** Undefined until the auth service has answered once. */
  fragment?: OpenApiFragment;
  /** Changes whenever the fragment changes: part of the merged document's cache key. */
  revision: number;
}

export interface AuthFragmentSource {
  current(): Promise<AuthFragmentState>;
}

/**
 * The auth service's OpenAPI fragment, cached. Missing: fetched on demand (one fetch at a time).
 * Stale: served while a background fetch replaces it. A failed fetch keeps what we had.
 */
export function createAuthFragmentSource(options: AuthFragmentOptions): AuthFragmentSource {
  const { authUrl, internalSecret, logger } = options;
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? 2000;
  let cached: { fragment: OpenApiFragment; fetchedAt: number } | undefined;
  let revision = 0;
  let lastFailureAt = Number.NEGATIVE_INFINITY;
  let inflight: Promise<void> | undefined;

  async function fetchFragment(): Promise<void> {
    try {
      const response = await fetch(`${authUrl.replace(/\/+$/, '')}${INTERNAL_PATHS.authOpenApi}`, {
        headers: { [INTERNAL_SECRET_HEADER]: internalSecret, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status !== 200) throw new Error(`auth service answered ${response.status}`);
      const parsed = OpenApiFragmentSchema.safeParse(await response.json());
      if (!parsed.success) throw new Error('auth service answered an invalid OpenAPI fragment');
      if (!cached || !isDeepStrictEqual(cached.fragment, parsed.data)) revision += 1;
      cached = { fragment: parsed.data, fetchedAt: Date.now() };
    } catch (error) {
      lastFailureAt = Date.now();
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      logger.warn({ reason, kept_previous: cached !== undefined }, 'could not fetch the auth service OpenAPI fragment');
    }
  }

  const refetch = () => (inflight ??= fetchFragment().finally(() => (inflight = undefined)));

  return {
    async current() {
      const now = Date.now();
      const mayRetry = now - lastFailureAt >= retryAfterFailureMs;
      if (!cached && mayRetry) await refetch();
      else if (cached && now - cached.fetchedAt >= maxAgeMs && mayRetry) void refetch();
      return { fragment: cached?.fragment, revision };
    },
  };
}

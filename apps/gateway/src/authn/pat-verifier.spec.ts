import { PAT_ANSWER_MAX_AGE_MS, PAT_CACHE_TTL_SECONDS, PAT_INVALID_CACHE_TTL_SECONDS } from '@mt/contracts';
import type { IntrospectionResult } from '@mt/contracts';
import { createMetrics } from '@mt/metrics';
import { silentLogger } from '@mt/testing';
import { generatePat } from '@mt/tokens';
import { PatVerifier, patCacheTtlSeconds, type PatVerifierOptions } from './pat-verifier';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const active = (expiresAt: string): IntrospectionResult => ({
  active: true,
  user_id: 'u',
  username: 'n',
  scopes: [],
  token_id: 't',
  expires_at: expiresAt,
});

describe('PAT cache TTL', () => {
  it('is one minute for a token that lives longer', () => {
    expect(patCacheTtlSeconds(active('2027-01-01T00:00:00.000Z'), NOW)).toBe(PAT_CACHE_TTL_SECONDS);
  });

  it('never outlives the token', () => {
    expect(patCacheTtlSeconds(active('2026-11-21T12:00:12.900Z'), NOW)).toBe(12);
    expect(patCacheTtlSeconds(active('2026-11-21T12:00:00.500Z'), NOW)).toBe(0);
    expect(patCacheTtlSeconds(active('2026-11-21T11:00:00.000Z'), NOW)).toBe(0);
    expect(patCacheTtlSeconds(active('not a date'), NOW)).toBe(0);
  });

  it('is short for an inactive answer', () => {
    expect(patCacheTtlSeconds({ active: false }, NOW)).toBe(PAT_INVALID_CACHE_TTL_SECONDS);
  });
});

describe('PAT verifier caching', () => {
  /** A verifier whose introspection takes `tookMs` on a fake clock; returns what it wrote to the cache. */
  async function cachedAfter(tookMs: number): Promise<string[]> {
    let clock = NOW;
    const saved: string[] = [];
    const cache: PatVerifierOptions['cache'] = {
      find: async () => null,
      save: async (tokenHash) => void saved.push(tokenHash),
    };
    const verifier = new PatVerifier({
      cache,
      authService: {
        introspect: async () => {
          clock += tookMs;
          return active('2027-01-01T00:00:00.000Z');
        },
      },
      metrics: createMetrics('gateway-test'),
      logger: silentLogger(),
      now: () => clock,
    });
    expect((await verifier.verify(generatePat())).kind).toBe('authenticated');
    return saved;
  }

  it('caches an answer that came back promptly', async () => {
    expect(await cachedAfter(PAT_ANSWER_MAX_AGE_MS)).toHaveLength(1);
  });

  it('does not cache an answer older than PAT_ANSWER_MAX_AGE_MS (it may predate a revocation)', async () => {
    expect(await cachedAfter(PAT_ANSWER_MAX_AGE_MS + 1)).toHaveLength(0);
  });
});

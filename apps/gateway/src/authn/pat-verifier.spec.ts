import { PAT_CACHE_TTL_SECONDS, PAT_INVALID_CACHE_TTL_SECONDS } from '@mt/contracts';
import type { IntrospectionResult } from '@mt/contracts';
import { patCacheTtlSeconds } from './pat-verifier';

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

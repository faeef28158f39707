import { ConfigError } from '@mt/config';
import { loadGatewayConfig } from './config';

const SECRET = 's'.repeat(32);

describe('gateway configuration', () => {
  it('has the documented defaults', () => {
    const config = loadGatewayConfig({ INTERNAL_SECRET: SECRET });
    expect(config).toMatchObject({
      PORT: 8080,
      AUTH_URL: 'http://127.0.0.1:3001',
      REGISTRY_URL: 'http://127.0.0.1:3002',
      CORS_ORIGINS: [],
      RATE_LIMIT_PER_MINUTE: 1200,
      PROXY_TIMEOUT_MS: 10000,
      TRUST_PROXY: false,
      JWT_ISSUER: 'media-tracker',
      JWT_AUDIENCE: 'media-tracker-api',
      REDIS_KEY_PREFIX: 'mt:',
    });
  });

  it('parses lists, trust settings and trims trailing slashes from upstream URLs', () => {
    const config = loadGatewayConfig({
      INTERNAL_SECRET: SECRET,
      AUTH_URL: 'http://auth:3001/',
      CORS_ORIGINS: 'https://a.example.com, http://localhost:5173',
      TRUST_PROXY: 'loopback, 10.0.0.0/8',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    expect(config.AUTH_URL).toBe('http://auth:3001');
    expect(config.CORS_ORIGINS).toEqual(['https://a.example.com', 'http://localhost:5173']);
    expect(config.TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8']);
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(0);
    expect(loadGatewayConfig({ INTERNAL_SECRET: SECRET, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadGatewayConfig({ INTERNAL_SECRET: SECRET, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadGatewayConfig({ AUTH_URL: 'ftp://x', CORS_ORIGINS: 'https://a.example.com/path', PROXY_TIMEOUT_MS: 'soon' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['INTERNAL_SECRET', 'AUTH_URL', 'CORS_ORIGINS', 'PROXY_TIMEOUT_MS']) expect(problems).toContain(name);
  });

  it('serves Open Library covers only by default, from a bounded cache, never from private addresses', () => {
    const config = loadGatewayConfig({ INTERNAL_SECRET: SECRET });
    expect(config.imageHosts).toEqual({ openlibrary: 'https://covers.openlibrary.org' });
    expect(config).toMatchObject({
      IMAGE_CACHE_MAX_BYTES: 256 * 1024 * 1024,
      IMAGE_MEMORY_CACHE_BYTES: 32 * 1024 * 1024,
      IMAGE_FETCH_TIMEOUT_MS: 5000,
      IMAGE_ALLOW_PRIVATE_HOSTS: false,
    });
  });

  it('adds TMDB images once TMDB has a credential, from its configured host', () => {
    const config = loadGatewayConfig({ INTERNAL_SECRET: SECRET, TMDB_READ_TOKEN: 't', TMDB_IMAGE_URL: 'http://127.0.0.1:9000/t/p/' });
    expect(config.imageHosts).toEqual({ tmdb: 'http://127.0.0.1:9000/t/p', openlibrary: 'https://covers.openlibrary.org' });
  });

  it('refuses image hosts that are not http(s) URLs and a cache smaller than the largest image', () => {
    const bad = { INTERNAL_SECRET: SECRET, TMDB_IMAGE_URL: 'file:///etc', OPENLIBRARY_COVERS_URL: 'covers', IMAGE_CACHE_MAX_BYTES: '1024' };
    const problems = (() => {
      try {
        loadGatewayConfig(bad);
        return '';
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
    })();
    for (const name of ['TMDB_IMAGE_URL', 'OPENLIBRARY_COVERS_URL', 'IMAGE_CACHE_MAX_BYTES']) expect(problems).toContain(name);
  });
});

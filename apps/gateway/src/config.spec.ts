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
});

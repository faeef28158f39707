import { ConfigError } from '@mt/config';
import { loadRegistryConfig } from './config';

const SECRET = 'x'.repeat(32);

describe('registry config', () => {
  it('defaults to a 30 s TTL and a 2 s sweep', () => {
    const config = loadRegistryConfig({ INTERNAL_SECRET: SECRET });
    expect(config).toMatchObject({ PORT: 3002, INSTANCE_TTL_MS: 30_000, SWEEP_INTERVAL_MS: 2000, REDIS_KEY_PREFIX: 'mt:' });
  });

  it('reads INSTANCE_TTL_MS and SWEEP_INTERVAL_MS', () => {
    expect(loadRegistryConfig({ INTERNAL_SECRET: SECRET, INSTANCE_TTL_MS: '1500', SWEEP_INTERVAL_MS: '200' })).toMatchObject({
      INSTANCE_TTL_MS: 1500,
      SWEEP_INTERVAL_MS: 200,
    });
  });

  it('names every bad variable', () => {
    expect(() => loadRegistryConfig({ INSTANCE_TTL_MS: '10', SWEEP_INTERVAL_MS: 'soon' })).toThrow(ConfigError);
    try {
      loadRegistryConfig({ INSTANCE_TTL_MS: '10', SWEEP_INTERVAL_MS: 'soon' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^INTERNAL_SECRET: /),
        expect.stringMatching(/^INSTANCE_TTL_MS: /),
        expect.stringMatching(/^SWEEP_INTERVAL_MS: /),
      ]);
    }
  });
});

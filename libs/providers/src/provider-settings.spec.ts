import { enabledProviderIds, providerSettings } from './provider-settings';

describe('providerSettings', () => {
  it('enables TMDB only with a credential, and Open Library unless turned off', () => {
    expect(enabledProviderIds(providerSettings({}))).toEqual(['openlibrary']);
    expect(enabledProviderIds(providerSettings({ TMDB_API_KEY: 'k', OPENLIBRARY_ENABLED: 'false' }))).toEqual(['tmdb']);
  });

  it('uses the v4 read token when both TMDB credentials are set', () => {
    expect(providerSettings({ TMDB_API_KEY: 'key', TMDB_READ_TOKEN: 'token' }).tmdb?.credential).toEqual({ kind: 'bearer', token: 'token' });
    expect(providerSettings({ TMDB_API_KEY: 'key' }).tmdb?.credential).toEqual({ kind: 'api_key', key: 'key' });
  });
});

import { enabledProviderIds, providerSettings } from './provider-settings';

describe('providerSettings', () => {
  it('enables TMDB only with a credential, and Open Library unless turned off', () => {
    expect(enabledProviderIds(providerSettings({}))).toEqual(['openlibrary']);
    expect(enabledProviderIds(providerSettings({ TMDB_API_KEY: 'k', OPENLIBRARY_ENABLED: 'false' }))).toEqual(['tmdb']);
  });

  it('takes blank variables as unset, and OPENLIBRARY_ENABLED in any case', () => {
    expect(providerSettings({ TMDB_API_KEY: '', TMDB_API_URL: ' ', OPENLIBRARY_ENABLED: 'FALSE' })).toEqual({});
    expect(providerSettings({ TMDB_API_KEY: 'k', TMDB_API_URL: 'http://127.0.0.1:9/3/' }).tmdb?.apiUrl).toBe('http://127.0.0.1:9/3');
  });

  it('uses the v4 read token when both TMDB credentials are set', () => {
    expect(providerSettings({ TMDB_API_KEY: 'key', TMDB_READ_TOKEN: 'token' }).tmdb?.credential).toEqual({ kind: 'bearer', token: 'token' });
    expect(providerSettings({ TMDB_API_KEY: 'key' }).tmdb?.credential).toEqual({ kind: 'api_key', key: 'key' });
  });
});

import { imageSources, posterPath } from './image-sources';

describe('imageSources', () => {
  it('lists only the enabled providers with their image bases, defaults included', () => {
    expect(imageSources({})).toEqual({ openlibrary: 'https://covers.openlibrary.org' });
    expect(imageSources({ TMDB_API_KEY: 'k', OPENLIBRARY_ENABLED: 'false' })).toEqual({ tmdb: 'https://image.tmdb.org/t/p' });
    expect(imageSources({ TMDB_READ_TOKEN: 't', TMDB_IMAGE_URL: 'http://127.0.0.1:9/img/', OPENLIBRARY_COVERS_URL: 'http://127.0.0.1:9/covers' })).toEqual({
      tmdb: 'http://127.0.0.1:9/img',
      openlibrary: 'http://127.0.0.1:9/covers',
    });
  });

  it('ignores blank credentials and reads OPENLIBRARY_ENABLED without regard to case', () => {
    expect(imageSources({ TMDB_API_KEY: ' ', OPENLIBRARY_ENABLED: ' FALSE ' })).toEqual({});
  });
});

describe('posterPath', () => {
  const sources = { tmdb: 'https://image.tmdb.org/t/p', openlibrary: 'https://covers.openlibrary.org' };

  it("gives this API's image path of a poster under a known image base", () => {
    expect(posterPath('https://image.tmdb.org/t/p/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg', sources)).toBe('/api/v1/images/tmdb/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg');
    expect(posterPath('https://covers.openlibrary.org/b/id/8231856-L.jpg', sources)).toBe('/api/v1/images/openlibrary/b/id/8231856-L.jpg');
  });

  it('is null for no poster, another host, a disabled provider or a path that is not plain', () => {
    expect(posterPath(null, sources)).toBeNull();
    expect(posterPath('https://example.org/poster.jpg', sources)).toBeNull();
    expect(posterPath('https://image.tmdb.org/t/p/w500/a.jpg', { openlibrary: sources.openlibrary })).toBeNull();
    expect(posterPath('https://image.tmdb.org/t/pw500/a.jpg', sources)).toBeNull();
    for (const rest of ['w500/../secret', 'w500/a.jpg?x=1', 'w500/%2e%2e/a.jpg', 'w500//a.jpg', 'w500/./a.jpg', 'w500/a.jpg#frag']) {
      expect(posterPath(`https://image.tmdb.org/t/p/${rest}`, sources)).toBeNull();
    }
  });
});

import { DEFAULT_OPENLIBRARY_COVERS_URL, DEFAULT_TMDB_IMAGE_URL, imageSources } from './image-sources';

describe('imageSources', () => {
  it('enables Open Library alone when TMDB has no credentials', () => {
    expect(imageSources({})).toEqual({ openlibrary: DEFAULT_OPENLIBRARY_COVERS_URL });
  });

  it.each([['TMDB_API_KEY'], ['TMDB_READ_TOKEN']])('enables TMDB at its public image host when %s is set', (name) => {
    expect(imageSources({ [name]: 'secret' })).toEqual({ tmdb: DEFAULT_TMDB_IMAGE_URL, openlibrary: DEFAULT_OPENLIBRARY_COVERS_URL });
  });

  it('ignores blank TMDB credentials', () => {
    expect(imageSources({ TMDB_API_KEY: '  ', TMDB_READ_TOKEN: '' })).toEqual({ openlibrary: DEFAULT_OPENLIBRARY_COVERS_URL });
  });

  it('takes configured bases without their trailing slashes', () => {
    expect(
      imageSources({ TMDB_READ_TOKEN: 't', TMDB_IMAGE_URL: 'http://127.0.0.1:9000/t/p/', OPENLIBRARY_COVERS_URL: 'http://127.0.0.1:9001//' }),
    ).toEqual({ tmdb: 'http://127.0.0.1:9000/t/p', openlibrary: 'http://127.0.0.1:9001' });
  });

  it.each(['false', 'FALSE', ' false '])('disables Open Library when OPENLIBRARY_ENABLED is %j', (value) => {
    expect(imageSources({ OPENLIBRARY_ENABLED: value })).toEqual({});
  });

  it('keeps Open Library for any other OPENLIBRARY_ENABLED value', () => {
    expect(imageSources({ OPENLIBRARY_ENABLED: 'true' })).toEqual({ openlibrary: DEFAULT_OPENLIBRARY_COVERS_URL });
  });
});

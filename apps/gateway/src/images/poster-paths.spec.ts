import { imageSources, imageSourcesOf, posterPath, providerSettings } from '@mt/providers';
import { parseImagePath } from './image-path';

/** The catalog writes `poster` with posterPath; this route must read each one back to the very image URL. */
describe("the catalog's poster paths and this route", () => {
  const env = { TMDB_API_KEY: 'key' };
  // As each side reads them: the catalog from its validated settings, this route (config.ts) from the environment.
  const catalogSources = imageSourcesOf(providerSettings(env));
  const sources = imageSources(env);

  it.each([
    ['https://image.tmdb.org/t/p/w500/vfrQk5IPloGg1v9Rzbh2Eg3VGyM.jpg'],
    ['https://covers.openlibrary.org/b/id/8231856-L.jpg'],
  ])('resolves the poster path of %s to that URL on an allowed host', (posterUrl) => {
    const path = posterPath(posterUrl, catalogSources);
    expect(path).not.toBeNull();
    const parsed = parseImagePath(path!);
    expect(parsed).toBeDefined();
    const base = sources[parsed!.provider as keyof typeof sources];
    expect(`${base}/${parsed!.path}`).toBe(posterUrl);
  });
});

import { describeImportSources, IMPORT_MAPPINGS } from './import-mappings';
import { sourcesFor } from './sources/registry';
import { SOURCE_IDS } from './sources/source';

describe('import mappings', () => {
  it('lists the import sources per category', () => {
    expect(sourcesFor('movies')).toEqual(['media-tracker', 'csv', 'letterboxd', 'trakt', 'imdb']);
    expect(sourcesFor('tvshows')).toEqual(['media-tracker', 'csv', 'trakt', 'imdb']);
    expect(sourcesFor('books')).toEqual(['media-tracker', 'csv', 'goodreads', 'storygraph']);
  });

  it('describes every source as data, with the shelf and status tables of the parsers', () => {
    expect(Object.keys(IMPORT_MAPPINGS).sort()).toEqual([...SOURCE_IDS].sort());
    expect(IMPORT_MAPPINGS.goodreads.statuses).toEqual(
      expect.arrayContaining([
        { from: '`to-read`', to: 'plan_to_watch' },
        { from: '`currently-reading`', to: 'watching' },
        { from: '`read`', to: 'completed' },
      ]),
    );
    expect(IMPORT_MAPPINGS.storygraph.statuses).toContainEqual({ from: '`did-not-finish`', to: 'dropped' });
  });

  it('renders Markdown for one category: only its sources, the mapping tables and the limits', () => {
    const books = describeImportSources('books');
    expect(books).toContain('#### `goodreads` — Goodreads');
    expect(books).toContain('| `to-read` | `plan_to_watch` |');
    expect(books).toContain('10 MiB and 50,000 rows');
    expect(books).not.toContain('letterboxd');
    expect(describeImportSources('movies')).toContain('stars × 2 rounded up');
  });
});

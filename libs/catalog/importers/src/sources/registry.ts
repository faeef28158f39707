import type { Category } from '../model';
import { goodreadsSource } from './goodreads';
import { imdbSource } from './imdb';
import { letterboxdSource } from './letterboxd';
import { mediaTrackerCsvSource } from './media-tracker-csv';
import { mediaTrackerJsonSource } from './media-tracker-json';
import type { ImportSourceParser, SourceId } from './source';
import { storygraphSource } from './storygraph';
import { traktSource } from './trakt';

export const IMPORT_SOURCES: Readonly<Record<SourceId, ImportSourceParser>> = {
  'media-tracker': mediaTrackerJsonSource,
  csv: mediaTrackerCsvSource,
  letterboxd: letterboxdSource,
  trakt: traktSource,
  imdb: imdbSource,
  goodreads: goodreadsSource,
  storygraph: storygraphSource,
};

/** The sources a category imports from (docs/api.md "Your list in a category"), in the order of the contract. */
export const sourcesFor = (category: Category): SourceId[] =>
  (Object.keys(IMPORT_SOURCES) as SourceId[]).filter((id) =>
    IMPORT_SOURCES[id].categories.includes(category),
  );

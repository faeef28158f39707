import {
  catalogSchemas,
  getCategory,
  newEntryDocument,
  titleKey,
  titleWords,
  type EntryDocument,
  type EntryFieldsInput,
} from '../service-code';
import { Random } from './random';
import { buildVocabulary, TitleGenerator } from './titles';

export const MOVIES = getCategory('movies');

const GENRES = [
  'Drama',
  'Comedy',
  'Thriller',
  'Action',
  'Romance',
  'Horror',
  'Documentary',
  'Crime',
  'Science Fiction',
  'Adventure',
  'Animation',
  'Family',
  'Fantasy',
  'Mystery',
  'War',
  'Western',
  'Musical',
  'History',
  'Biography',
  'Sport',
];
const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elena',
  'François',
  'Greta',
  'Hiro',
  'Inés',
  'Jonas',
  'Kwame',
  'Lena',
  'Marta',
  'Noah',
  'Oskar',
  'Priya',
  'Rafael',
  'Sofia',
  'Tomás',
  'Yuki',
];
const LAST_NAMES = [
  'Almodóvar',
  'Berg',
  'Costa',
  'Dubois',
  'Eriksson',
  'Fischer',
  'García',
  'Hansen',
  'Ito',
  'Jansen',
  'Kowalski',
  'Lindqvist',
  'Moreau',
  'Novak',
  'Okafor',
  'Petrov',
  'Quinn',
  'Rossi',
  'Schäfer',
  'Tanaka',
];
const PHRASES = [
  'A story about',
  'Set in a small town,',
  'Years after the war,',
  'In a city that never sleeps,',
  'Based on true events,',
  'A quiet film about',
  'An unlikely friendship between',
  'A race against time for',
  'Told in three chapters,',
];
const SUBJECTS = [
  'two brothers',
  'a retired detective',
  'a young musician',
  'an old sailor',
  'a family',
  'a lonely scientist',
  'three friends',
  'a stranger',
];
const ENDINGS = [
  'who discover a secret.',
  'searching for home.',
  'and the price of freedom.',
  'on the road to the sea.',
  'who must choose.',
  'lost in the mountains.',
];

/** The catalog of the benchmark: `size` movies, each the same as the API would accept and store. */
export interface MovieDataSet {
  vocabulary: string[];
  /** In insertion order; the first 1 000 are the 1 000-entry catalog, the first 10 000 the 10 000-entry one. */
  docs: EntryDocument[];
}

const DAY_MS = 86_400_000;

/** The IMDb id of the `index`-th generated movie (every movie has one: lookup by external id is measured). */
export const benchImdbId = (index: number): string => `tt${9_000_000 + index}`;

/**
 * Generates `size` distinct movies (no two with the same folded title and year, as the unique index
 * demands), validates every one with the service's own create schema and builds the stored document
 * with the service's own `newEntryDocument`, so every derived search and sort key is what the API writes.
 */
export function generateMovies(size: number, seed = 20261121): MovieDataSet {
  const random = new Random(seed);
  const vocabulary = buildVocabulary(random);
  const titles = new TitleGenerator(random, vocabulary);
  const createSchema = catalogSchemas(MOVIES).CreateEntry;
  const seen = new Set<string>();
  const docs: EntryDocument[] = [];
  const start = Date.UTC(2021, 0, 1);
  const span = Date.UTC(2026, 9, 1) - start;
  while (docs.length < size) {
    const title = titles.title();
    const year = random.chance(0.03) ? null : random.int(1920, 2026);
    const key = `${titleKey(title)}\u0000${year}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const genres = [...new Set(Array.from({ length: random.int(1, 3) }, () => random.pick(GENRES)))];
    const raw = {
      title,
      year,
      description: random.chance(0.1)
        ? null
        : `${random.pick(PHRASES)} ${random.pick(SUBJECTS)} ${random.pick(ENDINGS)}`,
      genres,
      runtime_minutes: random.chance(0.05) ? null : random.int(70, 200),
      director: random.chance(0.05) ? null : `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`,
      // Not drawn from the generator: the titles and everything else stay what they were before ids existed.
      external_ids: { imdb: benchImdbId(docs.length) },
    };
    const input = createSchema.parse(raw) as EntryFieldsInput & { title: string };
    const createdAt = new Date(start + Math.floor(random.next() * span));
    const doc = newEntryDocument(MOVIES, input, null, createdAt);
    doc.updated_at = random.chance(0.3)
      ? new Date(createdAt.getTime() + random.int(1, 300) * DAY_MS)
      : createdAt;
    docs.push(doc);
  }
  return { vocabulary, docs };
}

export interface PrefixChoice {
  prefix: string;
  /** How many of the first `n` titles it matches, for each size measured. */
  matches: Record<number, number>;
}

/**
 * Search prefixes of realistic selectivity: 4-letter starts of longer vocabulary words (so the query is
 * a genuine prefix, not a whole word) that match close to `targetFraction` of the titles. The first is
 * the measured one; the others are for the uncached (first-time) searches.
 */
export function choosePrefixes(
  data: MovieDataSet,
  sizes: readonly number[],
  count: number,
  targetFraction = 0.015,
): PrefixChoice[] {
  const candidates = new Set<string>();
  for (const word of data.vocabulary.slice(0, 600)) {
    const folded = titleWords(word)[0];
    if (folded && folded.length >= 6 && /^[a-z]+$/.test(folded)) candidates.add(folded.slice(0, 4));
  }
  const total = data.docs.length;
  const counts = new Map<string, number>([...candidates].map((prefix) => [prefix, 0]));
  for (const doc of data.docs) {
    for (const prefix of doc.title_prefixes) {
      const seen = counts.get(prefix);
      if (seen !== undefined) counts.set(prefix, seen + 1);
    }
  }
  const ranked = [...counts.entries()]
    .filter(([prefix]) => !data.vocabulary.includes(prefix))
    .sort(
      ([pa, a], [pb, b]) =>
        Math.abs(a / total - targetFraction) - Math.abs(b / total - targetFraction) || pa.localeCompare(pb),
    )
    .slice(0, count);
  return ranked.map(([prefix]) => ({
    prefix,
    matches: Object.fromEntries(
      sizes.map((size) => [
        size,
        data.docs.slice(0, size).filter((doc) => doc.title_prefixes.includes(prefix)).length,
      ]),
    ),
  }));
}

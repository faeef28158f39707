/**
 * Case- and accent-folding of titles and queries (docs/api.md "The catalog of a category"): NFKD
 * decomposition, combining marks removed, lower case, plus the few Latin letters that do not decompose
 * (ß, æ, ø, ...). The same functions build the catalog's stored keys, its query terms and the importers'
 * work keys, so every side always agrees.
 *
 * What a title stores is bounded whatever its characters: NFKD turns one character into up to 18
 * (U+FDFA; U+3316 gives a 6-letter word), and a title stores every prefix of every word. Hence
 * SEARCH_LIMITS:
 * - the folded text is cut at 600 characters (twice the longest title: Hangul syllables fold into 2–3
 *   letters, Latin ligatures into 2–3): duplicates, the title sort and the search words all use that;
 * - a word is indexed by its first 20 characters: a longer word is found by its prefixes up to 20
 *   characters, and a longer query word by its first 20 (queries are cut the same way), so two words
 *   that share their first 20 characters are not told apart;
 * - a title stores at most 400 distinct prefixes, word by word in title order: the words after the
 *   one that would pass that are not searchable (300 characters of ordinary words need about 200).
 */
export const SEARCH_LIMITS = { foldedLength: 600, wordLength: 20, prefixes: 400 } as const;

export const EXTRA_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
/** The keys of EXTRA_FOLDS, written out so that a bundle that never folds text (the web app) can leave them out. */
export const EXTRA_FOLD_CHARS = /[ßẞæœøłđðþı]/gu;
const COMBINING_MARKS = /\p{M}+/gu;
/** Apostrophes and their look-alikes. */
const APOSTROPHES = /['’ʼ`´]/gu;
const WORD_SEPARATORS = /[^\p{L}\p{N}]+/u;

export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(EXTRA_FOLD_CHARS, (char) => EXTRA_FOLDS[char] ?? char)
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '');
}

/** The first `count` characters (code points, so a surrogate pair is never split). */
const firstChars = (text: string, count: number): string => {
  const chars = Array.from(text);
  return chars.length > count ? chars.slice(0, count).join('') : text;
};

/** Folded and cut at SEARCH_LIMITS.foldedLength: what keys and search words are made of. */
const boundedFold = (text: string): string => firstChars(foldText(text), SEARCH_LIMITS.foldedLength);

/** The duplicate-detection and sort key of a title: folded, whitespace collapsed. */
export function titleKey(title: string): string {
  return boundedFold(title).replace(/\s+/gu, ' ').trim();
}

/** Words as indexed: every character but a letter or digit separates words; a word keeps its first 20 characters. */
const splitWords = (folded: string): string[] =>
  folded
    .split(WORD_SEPARATORS)
    .filter(Boolean)
    .map((word) => firstChars(word, SEARCH_LIMITS.wordLength));

/** The distinct folded words of a query, in order, cut exactly as title words are. */
export function searchWords(text: string): string[] {
  return [...new Set(splitWords(boundedFold(text)))];
}

/** Every prefix of every word ("the", "matrix" → t, th, the, m, ma, ..., matrix), distinct. */
export function wordPrefixes(words: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const word of words) for (const prefix of prefixesOf(word)) prefixes.add(prefix);
  return [...prefixes];
}

function prefixesOf(word: string): string[] {
  const chars = Array.from(word);
  return chars.map((_, index) => chars.slice(0, index + 1).join(''));
}

export interface TitleSearchKeys {
  /** Whole words (relevance). */
  words: string[];
  /** Every prefix of those words (matching). */
  prefixes: string[];
}

/**
 * What a title is found by: its query-style words, plus each word written with its apostrophes dropped
 * (so "d'Amélie" is found by "amel" and "Schindler's" by "schindlers"), and all their prefixes. Words
 * are taken in title order while their prefixes fit in SEARCH_LIMITS.prefixes; a word is stored
 * together with all of its prefixes or not at all, so a stored word always matches itself.
 */
export function titleSearchKeys(title: string): TitleSearchKeys {
  const folded = boundedFold(title);
  const candidates = new Set([...splitWords(folded), ...splitWords(folded.replace(APOSTROPHES, ''))]);
  const words: string[] = [];
  const prefixes = new Set<string>();
  for (const word of candidates) {
    const fresh = prefixesOf(word).filter((prefix) => !prefixes.has(prefix));
    if (prefixes.size + fresh.length > SEARCH_LIMITS.prefixes) break;
    words.push(word);
    for (const prefix of fresh) prefixes.add(prefix);
  }
  return { words, prefixes: [...prefixes] };
}

/** The stored title words (see titleSearchKeys). */
export const titleWords = (title: string): string[] => titleSearchKeys(title).words;

/** A genre's filter key: exact, but case-insensitive (and insensitive to Unicode composition). */
export function genreKey(genre: string): string {
  return genre.normalize('NFC').trim().toLowerCase();
}

/**
 * Case- and accent-folding of titles and queries (API.md §5): NFKD decomposition, combining marks
 * removed, lower case, plus the few Latin letters that do not decompose (ß, æ, ø, ...). The same
 * functions build the stored keys and the query terms, so both sides always agree.
 */
const EXTRA_FOLDS: Readonly<Record<string, string>> = {
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
const EXTRA_FOLD_CHARS = new RegExp(`[${Object.keys(EXTRA_FOLDS).join('')}]`, 'gu');
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

/** The duplicate-detection and sort key of a title: folded, whitespace collapsed. */
export function titleKey(title: string): string {
  return foldText(title).replace(/\s+/gu, ' ').trim();
}

const splitWords = (folded: string): string[] => folded.split(WORD_SEPARATORS).filter(Boolean);

/** The distinct folded words of a query, in order: every character but a letter or digit separates words. */
export function searchWords(text: string): string[] {
  return [...new Set(splitWords(foldText(text)))];
}

/**
 * The words a title is found by: its query-style words, plus each word written with its apostrophes
 * dropped, so "d'Amélie" is found by "amel" and "Schindler's" by "schindlers".
 */
export function titleWords(title: string): string[] {
  const folded = foldText(title);
  return [...new Set([...splitWords(folded), ...splitWords(folded.replace(APOSTROPHES, ''))])];
}

/** Every prefix of every word ("the", "matrix" → t, th, the, m, ma, ..., matrix), distinct. */
export function wordPrefixes(words: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const word of words) {
    const chars = Array.from(word);
    for (let length = 1; length <= chars.length; length++) prefixes.add(chars.slice(0, length).join(''));
  }
  return [...prefixes];
}

/** A genre's filter key: exact, but case-insensitive (and insensitive to Unicode composition). */
export function genreKey(genre: string): string {
  return genre.normalize('NFC').trim().toLowerCase();
}

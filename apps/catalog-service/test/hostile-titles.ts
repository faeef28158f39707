import { foldText } from '@mt/domain';

/** The longest title the API accepts (UTF-16 code units, as the schema counts). */
export const MAX_TITLE_LENGTH = 300;

/** A character repeated up to the title limit. */
export const repeatedTitle = (char: string): string =>
  char.repeat(Math.floor(MAX_TITLE_LENGTH / char.length));

/**
 * Every code point that folds into more than one character (NFKD expanders: U+FDFA → 18 characters,
 * U+3316 → a 6-letter word, ligatures, squared and parenthesised letters …), found by folding all of
 * Unicode, and the longest expansions first.
 */
export function expandingCodePoints(): string[] {
  const found: Array<{ char: string; length: number }> = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    const length = Array.from(foldText(char)).length;
    if (length > 1) found.push({ char, length });
  }
  return found.sort((a, b) => b.length - a.length).map(({ char }) => char);
}

/**
 * Titles built to store the most: many distinct long words (squared katakana, 3–6 letters each, four per
 * word), the same with apostrophes (each word is then stored twice: with and without), CJK ideographs
 * as one-letter words. (The reported one endless word, 300 × U+3316, is among the repeated expanders.)
 */
export function constructedHostileTitles(): Record<string, string> {
  const squared = Array.from({ length: 0x3358 - 0x3300 }, (_, i) => String.fromCodePoint(0x3300 + i));
  const pick = (i: number) => squared[i % squared.length]!;
  const fill = (unit: (i: number) => string) => {
    let title = '';
    for (let i = 0; title.length < MAX_TITLE_LENGTH; i++) title += unit(i);
    // Titles are trimmed on input: no separator at the end.
    return title.slice(0, MAX_TITLE_LENGTH).trim();
  };
  return {
    'distinct katakana words': fill(
      (i) => `${pick(i)}${pick(i * 7 + 3)}${pick(i * 13 + 5)}${pick(i * 17 + 11)} `,
    ),
    'katakana words with apostrophes': fill(
      (i) => `x'${pick(i)}${pick(i * 7 + 3)}${pick(i * 13 + 5)}${pick(i * 17 + 11)} `,
    ),
    'one-letter CJK words': fill((i) => `${String.fromCodePoint(0x4e00 + i)} `),
  };
}

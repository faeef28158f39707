import { getCategory } from './categories';
import { mongo } from 'mongoose';
import { constructedHostileTitles, expandingCodePoints, repeatedTitle } from '../../test/hostile-titles';
import { SEARCH_LIMITS, searchWords, titleKey, titleSearchKeys } from '@mt/domain';
import { newEntryDocument } from './catalog-entry';

const KIB = 1024;
const movies = getCategory('movies');
const storedBytes = (title: string) =>
  mongo.BSON.calculateObjectSize(newEntryDocument(movies, { title }, 'a'.repeat(24), new Date()));

describe('what one title stores is bounded, whatever its characters', () => {
  it('stores under 64 KiB for every expanding code point repeated up to the title limit', () => {
    const expanders = expandingCodePoints();
    // U+FDFA folds into 18 characters, U+3316 into a 6-letter word; thousands more expand.
    expect(expanders.length).toBeGreaterThan(5000);
    expect(expanders.slice(0, 2)).toEqual(['\uFDFA', '\uFDFB']);
    let largest = { bytes: 0, char: '' };
    for (const char of expanders) {
      const bytes = storedBytes(repeatedTitle(char));
      if (bytes > largest.bytes) largest = { bytes, char };
    }
    expect(largest.bytes).toBeLessThan(64 * KIB);
  }, 120_000);

  it.each(Object.entries(constructedHostileTitles()))('stores under 64 KiB for %s', (_name, title) => {
    expect(storedBytes(title)).toBeLessThan(64 * KIB);
    const { words, prefixes } = titleSearchKeys(title);
    expect(prefixes.length).toBeLessThanOrEqual(SEARCH_LIMITS.prefixes);
    for (const word of words) expect(Array.from(word).length).toBeLessThanOrEqual(SEARCH_LIMITS.wordLength);
    expect(Array.from(titleKey(title)).length).toBeLessThanOrEqual(SEARCH_LIMITS.foldedLength);
  });

  it('stored 300 × U+3316 as 1 800 prefixes before; now as one 20-letter word and its 20 prefixes', () => {
    const { words, prefixes } = titleSearchKeys(repeatedTitle('\u3316'));
    expect(words).toEqual(['キロメートルキロメートルキロメートルキロ'.normalize('NFKD')]);
    expect(prefixes).toHaveLength(20);
    expect(storedBytes(repeatedTitle('\u3316'))).toBeLessThan(4 * KIB);
  });

  it('indexes a word longer than 20 characters by its first 20, and cuts query words the same way', () => {
    const { words } = titleSearchKeys('Mary Poppins: Supercalifragilisticexpialidocious');
    expect(words).toEqual(['mary', 'poppins', 'supercalifragilistic']);
    expect(searchWords('SUPERCALIFRAGILISTICEXPIALIDOCIOUS')).toEqual(['supercalifragilistic']);
    expect(searchWords('supercalifragilisticexpi supercalifragilisticexpo')).toEqual([
      'supercalifragilistic',
    ]);
  });

  it('stores every word of ordinary long titles', () => {
    const title =
      'Night of the Day of the Dawn of the Son of the Bride of the Return of the Revenge of the Terror of the Attack of the Evil, Mutant, Hellbound, Flesh-Eating, Crawling, Alien, Zombified, Subhumanoid Living Dead — Part 5';
    const { words } = titleSearchKeys(title);
    expect(words).toEqual(expect.arrayContaining(['night', 'subhumanoid', 'living', 'dead', 'part', '5']));
    const lorem =
      'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua '
        .repeat(3)
        .slice(0, 300);
    expect(titleSearchKeys(lorem).words).toContain('aliqua');
  });

  it('keeps a word together with all of its prefixes, and stops at the first word that does not fit', () => {
    const { words, prefixes } = titleSearchKeys(constructedHostileTitles()['distinct katakana words']!);
    const stored = new Set(prefixes);
    for (const word of words) {
      const chars = Array.from(word);
      for (let length = 1; length <= chars.length; length++)
        expect(stored.has(chars.slice(0, length).join(''))).toBe(true);
    }
  });
});

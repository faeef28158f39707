import { Random, ZipfSampler } from './random';

/**
 * Words that open the frequency list, in roughly the order they are common in film titles. Accented
 * words are mixed in at several ranks so that folding (case and accents) is exercised by the data set.
 */
const COMMON_WORDS = [
  'the',
  'of',
  'a',
  'and',
  'in',
  'night',
  'love',
  'man',
  'last',
  'day',
  'life',
  'world',
  'story',
  'house',
  'dark',
  'time',
  'city',
  'girl',
  'dead',
  'king',
  'war',
  'secret',
  'black',
  'home',
  'little',
  'blood',
  'road',
  'lost',
  'summer',
  'shadow',
  'star',
  'heart',
  'death',
  'people',
  'dream',
  'moon',
  'island',
  'winter',
  'river',
  'fire',
  'water',
  'light',
  'big',
  'great',
  'good',
  'wild',
  'american',
  'young',
  'other',
  'red',
  'white',
  'street',
  'queen',
  'ghost',
  'return',
  'empire',
  'lady',
  'brother',
  'sister',
  'father',
  'mother',
  'son',
  'daughter',
  'wedding',
  'murder',
  'mystery',
  'hunter',
  'silent',
  'storm',
  'journey',
  'last',
  'perfect',
  'café',
  'kingdom',
  'garden',
  'paradise',
  'devil',
  'angel',
  'sun',
  'ocean',
  'mountain',
  'forest',
  'train',
  'strange',
  'beautiful',
  'broken',
  'hidden',
  'golden',
  'silver',
  'iron',
  'glass',
  'stone',
  'paper',
  'señor',
  'mañana',
  'children',
  'friends',
  'lovers',
  'stranger',
  'soldier',
  'doctor',
  'captain',
  'detective',
  'escape',
  'revenge',
  'promise',
  'memory',
  'letter',
  'music',
  'dance',
  'song',
  'game',
  'machine',
  'planet',
  'amélie',
  'über',
  'noël',
  'garçon',
  'fiancée',
  'déjà',
  'naïve',
  'rosé',
  'crème',
  'façade',
  'smörgåsbord',
  'straße',
  'mädchen',
  'niño',
  'corazón',
  'élan',
  'château',
  'señorita',
  'señora',
  'göteborg',
  'københavn',
  'zoë',
  'chloé',
  'renée',
  'bjørn',
  'łódź',
  'ærø',
  'café',
  'société',
  'révolution',
  'liberté',
];

const ONSETS = [
  'b',
  'br',
  'c',
  'ch',
  'cl',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'h',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pr',
  'qu',
  'r',
  's',
  'sh',
  'st',
  't',
  'tr',
  'v',
  'w',
  'z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou', 'io'];
const ACCENTED_VOWELS: Record<string, string[]> = {
  a: ['á', 'à', 'ä', 'å'],
  e: ['é', 'è', 'ë'],
  i: ['í', 'ï'],
  o: ['ó', 'ö', 'ø'],
  u: ['ú', 'ü'],
};
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 'm', 'nd', 'rt', 'st', 'x', 'ck', 'ng'];

/** A pronounceable made-up word of 2–3 syllables; about 6 % carry an accent or a ñ/ç. */
function madeUpWord(random: Random): string {
  let word = '';
  const syllables = random.weighted([
    [2, 6],
    [3, 3],
    [1, 1],
  ] as const);
  for (let i = 0; i < syllables; i++) word += random.pick(ONSETS) + random.pick(VOWELS);
  word += random.pick(CODAS);
  if (random.chance(0.06)) {
    const positions = [...word].flatMap((char, index) => (ACCENTED_VOWELS[char] ? [index] : []));
    if (positions.length) {
      const index = random.pick(positions);
      const chars = [...word];
      const accented = ACCENTED_VOWELS[chars[index] ?? ''];
      if (accented) chars[index] = random.pick(accented);
      word = chars.join('');
    }
  } else if (random.chance(0.01)) {
    word = word.replace(/n/, 'ñ').replace(/c(?!h)/, 'ç');
  }
  return word;
}

/** The vocabulary, most frequent first: the common words, then made-up words up to `size` words. */
export function buildVocabulary(random: Random, size = 3000): string[] {
  const words = [...new Set(COMMON_WORDS)];
  const seen = new Set(words);
  while (words.length < size) {
    const word = madeUpWord(random);
    if (word.length >= 3 && !seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

const capitalise = (word: string) => word.charAt(0).toLocaleUpperCase('en') + word.slice(1);
const SMALL_WORDS = new Set(['the', 'of', 'a', 'and', 'in']);

export class TitleGenerator {
  private readonly zipf: ZipfSampler;

  constructor(
    private readonly random: Random,
    private readonly vocabulary: readonly string[],
  ) {
    this.zipf = new ZipfSampler(vocabulary.length, 1, 2);
  }

  /** A title of 1–6 words with Zipf word frequencies, title case, now and then a sequel number or a possessive. */
  title(): string {
    const length = this.random.weighted([
      [1, 12],
      [2, 30],
      [3, 27],
      [4, 16],
      [5, 10],
      [6, 5],
    ] as const);
    const words: string[] = [];
    for (let i = 0; i < length; i++) words.push(this.vocabulary[this.zipf.sample(this.random)] ?? 'the');
    let title = words
      .map((word, index) => (index > 0 && SMALL_WORDS.has(word) ? word : capitalise(word)))
      .join(' ');
    if (length >= 2 && this.random.chance(0.04)) title = title.replace(' ', `'s `);
    if (this.random.chance(0.05))
      title += this.random.pick([' 2', ' 3', ' II', ' III', ': Part Two', ': The Return']);
    return title;
  }
}

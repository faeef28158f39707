import { foldText, genreKey, searchWords, titleKey, titleWords, wordPrefixes } from '@mt/domain';

describe('text folding', () => {
  it('folds case and accents, including letters that do not decompose', () => {
    expect(foldText('Amélie')).toBe('amelie');
    expect(foldText('ÉTOILE')).toBe('etoile');
    expect(foldText('Straße Ærø Łódź')).toBe('strasse aero lodz');
    expect(foldText('ﬁlm')).toBe('film');
  });

  it('builds the duplicate key from the folded title with whitespace collapsed', () => {
    expect(titleKey('  The   Matrix ')).toBe('the matrix');
    expect(titleKey('AMÉLIE')).toBe(titleKey('amelie'));
  });

  it('splits queries into distinct words at anything but letters and digits', () => {
    expect(searchWords('Spider-Man: No Way Home (2021)')).toEqual(['spider', 'man', 'no', 'way', 'home', '2021']);
    expect(searchWords("schindler's")).toEqual(['schindler', 's']);
    expect(searchWords('the THE The')).toEqual(['the']);
    expect(searchWords('!!! ...')).toEqual([]);
    expect(searchWords('東京 物語')).toEqual(['東京', '物語']);
  });

  it("indexes titles by their words and by words with apostrophes dropped", () => {
    expect(titleWords("Le Destin d'Amélie")).toEqual(['le', 'destin', 'd', 'amelie', 'damelie']);
    expect(titleWords("Schindler's List")).toEqual(['schindler', 's', 'list', 'schindlers']);
  });

  it('lists every prefix of every word once', () => {
    expect(wordPrefixes(['the', 'then'])).toEqual(['t', 'th', 'the', 'then']);
    expect(wordPrefixes(['é'])).toEqual(['é']);
  });

  it('matches genres exactly but without case', () => {
    expect(genreKey(' Science Fiction ')).toBe('science fiction');
    expect(genreKey('Drama')).toBe(genreKey('dRAMA'));
    expect(genreKey('Drame')).not.toBe(genreKey('Drama'));
  });
});

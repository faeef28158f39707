import { workKey } from './text';

describe('workKey', () => {
  it('folds a title as the catalog folds it for duplicates: case, accents, spacing and letters like ß', () => {
    expect(workKey('  AMÉLIE ', 2001)).toBe(workKey('amelie', 2001));
    expect(workKey('Die Straße', 1990)).toBe(workKey('die strasse', 1990));
    expect(workKey('Ærø', null)).toBe(workKey('aero', null));
  });

  it('tells works apart by year', () => {
    expect(workKey('Dune', 1984)).not.toBe(workKey('Dune', 2021));
  });
});

import { isbn13Of, normaliseIsbn } from './isbn';

describe('normaliseIsbn', () => {
  it.each([
    ['978-0-441-47812-5', '9780441478125'],
    ['0441478123', '0441478123'],
    ['0-8044-2957-x', '080442957X'],
    [' 979-10-90636-07-1 ', '9791090636071'],
    ['0 306 40615 2', '0306406152'],
  ])('accepts %s as %s', (raw, isbn) => expect(normaliseIsbn(raw)).toBe(isbn));

  it.each(['0441478124', '9780441478126', '4006381333931', '12345', '', 'ISBN0441478123', '03064X6152'])(
    'refuses %p',
    (raw) => {
      expect(normaliseIsbn(raw)).toBeUndefined();
    },
  );
});

describe('isbn13Of', () => {
  it('derives the ISBN-13 of an ISBN-10 (978 prefix, new check digit) and keeps an ISBN-13', () => {
    expect(isbn13Of('0441478123')).toBe('9780441478125');
    expect(isbn13Of('080442957X')).toBe('9780804429573');
    expect(isbn13Of('9791090636071')).toBe('9791090636071');
  });
});

import { isbn13Of, normaliseIsbn } from '@mt/domain';

describe('normaliseIsbn', () => {
  it.each([
    ['978-0-441-47812-5', '9780441478125'],
    ['9780441478125', '9780441478125'],
    ['979-10-90636-07-1', '9791090636071'],
    ['0-306-40615-2', '0306406152'],
    ['080442957x', '080442957X'],
    ['0-8044-2957-X', '080442957X'],
  ])('accepts %s as %s', (raw, stored) => {
    expect(normaliseIsbn(raw)).toBe(stored);
  });

  it.each([
    ['a wrong ISBN-13 check digit', '9780441478126'],
    ['a wrong ISBN-10 check digit', '0306406153'],
    ['an EAN-13 that is not an ISBN', '4006381333931'],
    ['X inside an ISBN-10', '03064X6152'],
    ['X in an ISBN-13', '978044147812X'],
    ['12 digits', '978044147812'],
    ['spaces', '978 0441478125'],
    ['a leading hyphen', '-9780441478125'],
    ['a trailing hyphen', '9780441478125-'],
    ['doubled hyphens', '978--0441478125'],
    ['letters', 'ISBN9780441478125'],
    ['nothing', ''],
  ])('refuses %s', (_case, raw) => {
    expect(normaliseIsbn(raw)).toBeUndefined();
  });
});

describe('isbn13Of', () => {
  it.each([
    ['0306406152', '9780306406157'],
    ['080442957X', '9780804429573'],
    ['9780441478125', '9780441478125'],
  ])('derives the ISBN-13 of %s: %s', (stored, isbn13) => {
    expect(isbn13Of(stored)).toBe(isbn13);
  });

  it('has none for something that is not a stored ISBN', () => {
    expect(isbn13Of('12345')).toBeNull();
  });
});

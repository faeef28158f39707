/**
 * ISBNs as §5 and §8 store them: digits only (an ISBN-10 may end in X), check digit verified; `isbn13` is
 * the ISBN-13 of either form.
 */
function isbn10Valid(isbn: string): boolean {
  if (!/^\d{9}[\dX]$/.test(isbn)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (isbn[i] === 'X' ? 10 : Number(isbn[i])) * (10 - i);
  return sum % 11 === 0;
}

function isbn13CheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

const isbn13Valid = (isbn: string): boolean =>
  /^97[89]\d{10}$/.test(isbn) && isbn13CheckDigit(isbn.slice(0, 12)) === Number(isbn[12]);

/** The digits of a valid ISBN-10 or ISBN-13 written with optional hyphens or spaces, else undefined. */
export function normaliseIsbn(raw: string): string | undefined {
  const compact = raw.trim().replace(/[-\s]/g, '').toUpperCase();
  if (compact.length === 10) return isbn10Valid(compact) ? compact : undefined;
  if (compact.length === 13) return isbn13Valid(compact) ? compact : undefined;
  return undefined;
}

/** The ISBN-13 of a normalised ISBN (an ISBN-10 gets the 978 prefix and a new check digit). */
export function isbn13Of(isbn: string): string {
  if (isbn.length === 13) return isbn;
  const first12 = `978${isbn.slice(0, 9)}`;
  return `${first12}${isbn13CheckDigit(first12)}`;
}

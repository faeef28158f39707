/**
 * ISBN normalisation and check-digit validation (docs/api.md "The catalog of a category"): hyphens are
 * allowed between digits, the stored form is the bare digits (an ISBN-10 may end in `X`, stored upper-case).
 */
const ISBN_SHAPE = /^[0-9Xx]+(-[0-9Xx]+)*$/;

function isbn10CheckDigitValid(isbn: string): boolean {
  if (!/^\d{9}[\dX]$/.test(isbn)) return false;
  let sum = 0;
  [...isbn].forEach((char, i) => (sum += (char === 'X' ? 10 : Number(char)) * (10 - i)));
  return sum % 11 === 0;
}

function isbn13CheckDigitValid(isbn: string): boolean {
  // Only the Bookland prefixes are ISBNs; other EAN-13 codes with a valid check digit are not.
  if (!/^97[89]\d{10}$/.test(isbn)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(isbn[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(isbn[12]);
}

/** The stored form of a valid ISBN-10 or ISBN-13, or undefined when `raw` is not one. */
export function normaliseIsbn(raw: string): string | undefined {
  if (!ISBN_SHAPE.test(raw)) return undefined;
  const compact = raw.replace(/-/g, '').toUpperCase();
  if (compact.length === 10) return isbn10CheckDigitValid(compact) ? compact : undefined;
  if (compact.length === 13) return isbn13CheckDigitValid(compact) ? compact : undefined;
  return undefined;
}

/** The stored form: 10 characters (last may be X) or 13 digits. */
export const STORED_ISBN_PATTERN = /^(\d{9}[\dX]|\d{13})$/;

/** The ISBN-13 of a stored ISBN (an ISBN-10 gets the 978 prefix and a new check digit); null for anything else. */
export function isbn13Of(stored: string): string | null {
  if (/^97[89]\d{10}$/.test(stored)) return stored;
  if (!/^\d{9}[\dX]$/.test(stored)) return null;
  const body = `978${stored.slice(0, 9)}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

import { describe, expect, it } from 'vitest';
import { safeNext } from './navigation';

describe('safeNext', () => {
  it.each(['/movies/list?status=watching', '/books/65f1c0ffee0000000000abcd', '/tokens'])('goes back to a path of this app: %s', (next) => {
    expect(safeNext(next)).toBe(next);
  });

  it.each([null, '', 'movies', '//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '/login?next=/x', '/register', '/a\nb'])(
    'refuses anything else (%s) and goes to the start page',
    (next) => {
      expect(safeNext(next)).toBe('/');
    },
  );
});

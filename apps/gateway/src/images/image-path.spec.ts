import { parseImagePath } from './image-path';

describe('parseImagePath', () => {
  it.each([
    ['/api/v1/images/tmdb/w500/kqjL17yufvn9OVLyXYpvtyrFfak.jpg', { provider: 'tmdb', path: 'w500/kqjL17yufvn9OVLyXYpvtyrFfak.jpg' }],
    ['/api/v1/images/openlibrary/b/id/12345-M.jpg', { provider: 'openlibrary', path: 'b/id/12345-M.jpg' }],
    ['/api/v1/images/openlibrary/b/olid/OL7440033M-L.jpg', { provider: 'openlibrary', path: 'b/olid/OL7440033M-L.jpg' }],
    ['/api/v1/images/tmdb/original/a_b..c.png', { provider: 'tmdb', path: 'original/a_b..c.png' }],
  ])('splits %s into provider and image path', (requestPath, expected) => {
    expect(parseImagePath(requestPath)).toEqual(expected);
  });

  it.each([
    '/api/v1/movies',
    '/api/v1/images/tmdb',
    '/api/v1/images/tmdb/',
    '/api/v1/images//w500/x.jpg',
    '/api/v1/images/tmdb/w500//x.jpg',
    '/api/v1/images/tmdb/../x.jpg',
    '/api/v1/images/tmdb/./x.jpg',
    '/api/v1/images/tmdb/.hidden',
    '/api/v1/images/tmdb/%2e%2e/x.jpg',
    '/api/v1/images/tmdb/a%2fb.jpg',
    '/api/v1/images/tmdb/a%5cb.jpg',
    '/api/v1/images/tmdb/a\\b.jpg',
    '/api/v1/images/tmdb/http:/evil.example/x.jpg',
    '/api/v1/images/tmdb/user@evil.example/x.jpg',
    '/api/v1/images/tmdb/x.jpg%3Fq=1',
    '/api/v1/images/tmdb/x.jpg?q=1',
    '/api/v1/images/tmdb/a/b/c/d/e/f/g/h/i.jpg',
    `/api/v1/images/tmdb/${'a'.repeat(129)}.jpg`,
  ])('refuses %s', (requestPath) => {
    expect(parseImagePath(requestPath)).toBeUndefined();
  });
});

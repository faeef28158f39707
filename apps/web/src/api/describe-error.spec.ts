import { ApiError, ApiNetworkError } from '@mt/api-client';
import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error';

const apiError = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ApiError.fromResponse(new Response(null, { status, headers }), { status, timestamp: 't', request_id: 'req-1', ...body });

describe('describeError', () => {
  it('puts each field error next to its field, in a sentence', () => {
    const described = describeError(
      apiError(400, { error: 'validation failed', code: 'validation_failed', details: [{ path: 'password', message: 'must be at least 8 characters' }, { path: 'genres.2', message: 'too long' }] }),
      ['password', 'genres'],
    );
    expect(described.fields).toEqual({ password: 'Must be at least 8 characters.', genres: 'Too long.' });
    expect(described.message).toBe('Some fields need attention.');
  });

  it('says how long to wait after a 429', () => {
    expect(describeError(apiError(429, { error: 'too many', code: 'rate_limited' }, { 'retry-after': '42' })).message).toBe('Too many attempts. Try again in 42 seconds.');
  });

  it('keeps the server own words for a conflict, with the existing entry', () => {
    const described = describeError(apiError(409, { error: 'a movie with this title and year exists', code: 'conflict', existing_id: 'abc' }));
    expect(described).toMatchObject({ message: 'A movie with this title and year exists.', existingId: 'abc' });
  });

  it('shows a detail about a key the form has no field for (body) in the message', () => {
    const error = apiError(400, { error: 'validation failed', code: 'validation_failed', details: [{ path: 'body', message: "give the file's name (watched.csv or watchlist.csv)" }] });
    expect(describeError(error, ['source', 'file', 'mode']).message).toBe("Give the file's name (watched.csv or watchlist.csv).");
    expect(describeError(error).message).toBe("Give the file's name (watched.csv or watchlist.csv).");
  });

  it('quotes the request id for a server fault only, never for a mistake of the person', () => {
    expect(describeError(apiError(400, { error: 'bad', code: 'validation_failed' })).requestId).toBeUndefined();
    expect(describeError(apiError(409, { error: 'taken', code: 'conflict' })).requestId).toBeUndefined();
    expect(describeError(apiError(500, { error: 'internal error', code: 'internal' })).requestId).toBe('req-1');
  });

  it('explains an unreachable server and a server fault without internals', () => {
    expect(describeError(new ApiNetworkError('could not reach', '/x', false)).message).toBe('Could not reach the server. Check your connection and try again.');
    expect(describeError(apiError(500, { error: 'internal error', code: 'internal' })).message).toMatch(/^Something went wrong on the server/);
    expect(describeError(new TypeError('x is undefined')).message).toBe('Something went wrong in this page. Reload it and try again.');
  });
});

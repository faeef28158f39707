import { AppError } from '@mt/errors';
import type { Request } from 'express';
import { z } from 'zod';
import { parseBody, parseObjectId, parseParams, parseQuery } from './parse';

const asRequest = (parts: Partial<Pick<Request, 'body' | 'query' | 'params'>>) => parts as Request;

/** Runs `fn` and returns the AppError it throws. */
function thrownBy(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

const Movie = z.strictObject({ title: z.string().min(1), year: z.number().int(), genres: z.array(z.string()).optional() });

describe('parseBody', () => {
  it('returns the parsed body when valid', () => {
    expect(parseBody(Movie, asRequest({ body: { title: 'Alien', year: 1979 } }))).toEqual({ title: 'Alien', year: 1979 });
  });

  it('treats a missing body as {} so the 400 names every missing field', () => {
    const error = thrownBy(() => parseBody(Movie, asRequest({ body: undefined })));
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'request body is invalid' });
    expect(error.details).toEqual([
      { path: 'title', message: 'is required' },
      { path: 'year', message: 'is required' },
    ]);
  });

  it('lists every failing field, each unknown field by name', () => {
    const error = thrownBy(() => parseBody(Movie, asRequest({ body: { title: '', year: 'x', genres: [1], titel: 'typo', extra: 1 } })));
    expect(error.details!.map((d) => d.path).sort()).toEqual(['extra', 'genres.0', 'titel', 'title', 'year']);
    expect(error.details).toEqual(expect.arrayContaining([{ path: 'titel', message: 'unknown field' }, { path: 'extra', message: 'unknown field' }]));
  });

  it('reports a wrongly typed field by its type, not as missing', () => {
    const error = thrownBy(() => parseBody(Movie, asRequest({ body: { title: null, year: 1 } })));
    expect(error.details).toHaveLength(1);
    expect(error.details![0]!.path).toBe('title');
    expect(error.details![0]!.message).not.toBe('is required');
  });

  it('rejects a body that is not a JSON object', () => {
    for (const body of [[], 'text', 42]) {
      const error = thrownBy(() => parseBody(Movie, asRequest({ body })));
      expect(error.details).toEqual([{ path: '', message: 'body must be a JSON object' }]);
    }
  });
});

describe('parseQuery and parseParams', () => {
  it('reject unknown query parameters with 400, named as query parameters', () => {
    const error = thrownBy(() => parseQuery(z.strictObject({ page: z.string().optional() }), asRequest({ query: { pgae: '2' } })));
    expect(error).toMatchObject({ status: 400, message: 'query parameters are invalid', details: [{ path: 'pgae', message: 'unknown query parameter' }] });
  });

  it('validate path parameters', () => {
    expect(parseParams(z.object({ id: z.string() }), asRequest({ params: { id: 'a' } }))).toEqual({ id: 'a' });
    expect(thrownBy(() => parseParams(z.object({ id: z.string().min(2) }), asRequest({ params: { id: 'a' } }))).message).toBe(
      'path parameters are invalid',
    );
  });
});

describe('parseObjectId', () => {
  it('accepts 24 hex characters and lower-cases them', () => {
    expect(parseObjectId('65F0C0FFEE65F0C0FFEE65F0')).toBe('65f0c0ffee65f0c0ffee65f0');
  });

  it('rejects anything else with a 400 naming the parameter', () => {
    for (const value of ['abc', '65f0c0ffee65f0c0ffee65fz', '65f0c0ffee65f0c0ffee65f0a', undefined, 12]) {
      expect(thrownBy(() => parseObjectId(value, 'item_id'))).toMatchObject({
        status: 400,
        details: [{ path: 'item_id', message: 'must be a 24-character hexadecimal id' }],
      });
    }
  });
});

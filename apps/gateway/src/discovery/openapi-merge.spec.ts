import type { OpenApiFragment } from '@mt/contracts';
import { jsonEqual, mergeOpenApi, type OpenApiSource } from './openapi-merge';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ok = (schema: object) => ({ 200: { description: 'ok', content: { 'application/json': { schema } } } });
const op = (extra: object = {}) => ({ operationId: 'getThing', summary: 'Get', tags: ['t'], security: [], responses: ok(ref('Thing')), ...extra });

const ERROR = { type: 'object', properties: { error: { type: 'string' } } };
const gateway: OpenApiSource = {
  id: 'gateway',
  fragment: {
    paths: { '/api/v1/categories': { get: op({ operationId: 'listCategories', tags: ['discovery'], responses: ok(ref('Error')) }) } },
    components: { schemas: { Error: ERROR }, securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  },
  tags: [{ name: 'discovery', description: 'Discovery' }],
  displayRank: 99,
};
const category = (id: string, fragment: OpenApiFragment): OpenApiSource => ({ id, pathPrefix: `/api/v1/${id}`, fragment, tags: [{ name: id, description: `The ${id}` }] });

describe('mergeOpenApi', () => {
  it('keeps identical components once, whatever their key order', () => {
    const movies = category('movies', {
      paths: { '/api/v1/movies': { get: op({ responses: ok(ref('Error')) }) } },
      components: { schemas: { Error: { properties: { error: { type: 'string' } }, type: 'object' } } },
    });
    const { document, warnings } = mergeOpenApi({}, [gateway, movies]);
    expect((document['components'] as { schemas: object }).schemas).toEqual({ Error: ERROR });
    expect(warnings).toEqual([]);
  });

  it('renames a conflicting component and rewrites the references to it, also through components that use it', () => {
    const thing = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });
    const books = category('books', { paths: { '/api/v1/books': { get: op() } }, components: { schemas: { Thing: thing('isbn'), Page: { type: 'object', properties: { data: { type: 'array', items: ref('Thing') } } } } } });
    const movies = category('movies', {
      paths: { '/api/v1/movies': { get: op({ operationId: 'listMovies', responses: ok(ref('Page')) }) }, '/api/v1/movies/{id}': { get: op({ operationId: 'getMovie' }) } },
      components: { schemas: { Thing: thing('director'), Page: { type: 'object', properties: { data: { type: 'array', items: ref('Thing') } } } } },
    });
    const { document, warnings } = mergeOpenApi({}, [gateway, books, movies]);
    const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
    expect(schemas['Thing']).toEqual(thing('isbn'));
    expect(schemas['Thing_movies']).toEqual(thing('director'));
    // Page is textually identical but means another Thing: renamed too.
    expect(schemas['Page_movies']).toEqual({ type: 'object', properties: { data: { type: 'array', items: ref('Thing_movies') } } });
    const paths = document['paths'] as Record<string, Record<string, { responses: unknown }>>;
    expect(paths['/api/v1/movies']!['get']!.responses).toEqual(ok(ref('Page_movies')));
    expect(paths['/api/v1/movies/{id}']!['get']!.responses).toEqual(ok(ref('Thing_movies')));
    expect(paths['/api/v1/books']!['get']!.responses).toEqual(ok(ref('Thing')));
    expect(warnings).toEqual([
      'movies: component schemas/Thing differs from one already merged; renamed Thing_movies',
      'movies: component schemas/Page differs from one already merged; renamed Page_movies',
    ]);
  });

  it("keeps the gateway's security scheme when a fragment defines it differently", () => {
    const auth: OpenApiSource = {
      id: 'auth',
      pathPrefix: '/api/v1/auth',
      fragment: { paths: {}, components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'basic' } } } },
      tags: [{ name: 'auth', description: 'Auth' }],
    };
    const { document, warnings } = mergeOpenApi({}, [gateway, auth]);
    expect((document['components'] as { securitySchemes: unknown }).securitySchemes).toEqual({ bearerAuth: { type: 'http', scheme: 'bearer' } });
    expect(warnings).toEqual(["auth: security scheme bearerAuth differs from the gateway's; the gateway's definition is kept"]);
  });

  it('drops paths outside the source prefix and paths documented before', () => {
    const movies = category('movies', {
      paths: { '/api/v1/moviesx': { get: op() }, '/api/v1/categories': { get: op() }, '/api/v1/movies': { get: op() } },
      components: { schemas: { Thing: {} } },
    });
    const sneaky: OpenApiSource = { ...category('books', { paths: { '/api/v1/movies': { get: op({ operationId: 'x' }) } }, components: {} }), pathPrefix: '/api/v1' };
    const { document, warnings } = mergeOpenApi({}, [gateway, movies, sneaky]);
    expect(Object.keys(document['paths'] as object)).toEqual(['/api/v1/categories', '/api/v1/movies']);
    expect(warnings).toEqual([
      'movies: dropped /api/v1/moviesx (outside /api/v1/movies)',
      'movies: dropped /api/v1/categories (outside /api/v1/movies)',
      'books: dropped /api/v1/movies (already documented)',
    ]);
  });

  it('makes operationIds unique and fills a missing operationId, summary, tag and security', () => {
    const books = category('books', { paths: { '/api/v1/books': { get: op() } }, components: { schemas: { Thing: {} } } });
    const movies = category('movies', {
      paths: { '/api/v1/movies': { get: op() }, '/api/v1/movies/{id}': { patch: { responses: ok(ref('Thing')) } } },
      components: { schemas: { Thing: {} } },
    });
    const { document } = mergeOpenApi({}, [gateway, books, movies]);
    const paths = document['paths'] as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths['/api/v1/books']!['get']!['operationId']).toBe('getThing');
    expect(paths['/api/v1/movies']!['get']!['operationId']).toBe('moviesGetThing');
    expect(paths['/api/v1/movies/{id}']!['patch']).toEqual({
      operationId: 'patchApiV1MoviesId',
      summary: 'PATCH /api/v1/movies/{id}',
      tags: ['movies'],
      security: [],
      responses: ok(ref('Thing')),
    });
  });

  it('lists tags by display rank, then by first appearance, with descriptions', () => {
    const books = category('books', { paths: { '/api/v1/books': { get: op({ tags: ['Books list'] }) }, '/api/v1/books/x': { get: op({ operationId: 'b', tags: ['books'] }) } }, components: {} });
    const { document } = mergeOpenApi({ openapi: '3.0.3' }, [gateway, books]);
    expect(document['openapi']).toBe('3.0.3');
    expect(document['tags']).toEqual([
      { name: 'Books list', description: 'The books' },
      { name: 'books', description: 'The books' },
      { name: 'discovery', description: 'Discovery' },
    ]);
  });

  it('writes the schema { nullable: true } (anything) as {}', () => {
    const books = category('books', {
      paths: { '/api/v1/books': { get: op({ responses: ok({ type: 'object', additionalProperties: { nullable: true } }) }) } },
      components: { schemas: { Any: { nullable: true }, Name: { type: 'string', nullable: true } } },
    });
    const { document } = mergeOpenApi({}, [books]);
    expect((document['components'] as { schemas: object }).schemas).toEqual({ Any: {}, Name: { type: 'string', nullable: true } });
    const paths = document['paths'] as Record<string, Record<string, { responses: unknown }>>;
    expect(paths['/api/v1/books']!['get']!.responses).toEqual(ok({ type: 'object', additionalProperties: {} }));
  });
});

describe('jsonEqual', () => {
  it('ignores key order and undefined properties, but not values', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }], d: undefined }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: null }, { a: undefined })).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});

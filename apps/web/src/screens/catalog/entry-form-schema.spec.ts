import { describe, expect, it } from 'vitest';
import { entryBody, entryFormFields, type OpenApiLike } from './entry-form-schema';

const doc: OpenApiLike = {
  paths: { '/api/v1/games': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/GamesEntryCreate' } } } } } } },
  components: {
    schemas: {
      CatalogFields: {
        type: 'object',
        properties: {
          genres: { type: 'array', items: { type: 'string' }, description: 'Genres' },
          year: { type: 'integer', minimum: 1870, maximum: 2100 },
          title: { type: 'string', maxLength: 300 },
          description: { type: 'string', maxLength: 5000 },
        },
        required: ['title'],
      },
      GamesEntryCreate: {
        allOf: [{ $ref: '#/components/schemas/CatalogFields' }, { type: 'object', properties: { platforms: { type: 'array', items: { type: 'string' } }, players: { type: 'integer', minimum: 1 }, external_ids: { type: 'object' } } }],
      },
    },
  },
};

describe('the add-entry form read from the OpenAPI document', () => {
  it('has an input for each field a new category declares, title and year first', () => {
    const fields = entryFormFields(doc, 'games');
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['title', 'text', true],
      ['year', 'integer', false],
      ['genres', 'list', false],
      ['description', 'textarea', false],
      ['platforms', 'list', false],
      ['players', 'integer', false],
    ]);
    expect(fields.find((f) => f.name === 'year')).toMatchObject({ min: 1870, max: 2100, label: 'Year' });
  });

  it('sends what was typed: numbers as numbers, lists split at commas, empty inputs left out', () => {
    const fields = entryFormFields(doc, 'games');
    expect(entryBody(fields, { title: '  Portal ', year: '2007', genres: 'Puzzle, , Platform ', description: '', players: 'two' })).toEqual({
      title: 'Portal',
      year: 2007,
      genres: ['Puzzle', 'Platform'],
      players: 'two',
    });
  });

  it('has no fields for a category the document does not describe', () => {
    expect(entryFormFields(doc, 'comics')).toEqual([]);
  });
});

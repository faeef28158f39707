import SwaggerParser from '@apidevtools/swagger-parser';
import { InstanceRegistrationSchema } from '@mt/contracts';
import { CATEGORY_IDS, categoryRecord, getCategory } from './categories/categories';
import { buildCategoryOpenApi } from './openapi';

type Operation = { security?: unknown[]; description?: string; responses: Record<string, unknown>; requestBody?: unknown };

function merged() {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const clashes: string[] = [];
  for (const id of CATEGORY_IDS) {
    const fragment = buildCategoryOpenApi(id);
    Object.assign(paths, fragment.paths);
    for (const [name, schema] of Object.entries(fragment.components['schemas'] ?? {})) {
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) clashes.push(name);
      schemas[name] = schema;
    }
  }
  return { paths, schemas, clashes };
}

describe('category OpenAPI fragments', () => {
  it('publishes every operation under /api/v1/<category> with prefixed component names', () => {
    const fragment = buildCategoryOpenApi('movies');
    expect(Object.keys(fragment.paths).sort()).toEqual([
      '/api/v1/movies',
      '/api/v1/movies/bulk-delete',
      '/api/v1/movies/bulk-status',
      '/api/v1/movies/list',
      '/api/v1/movies/list/{item_id}',
      '/api/v1/movies/{id}',
    ]);
    const names = Object.keys(fragment.components['schemas'] ?? {});
    expect(names).toEqual(expect.arrayContaining(['MoviesEntry', 'MoviesEntryCreate', 'MoviesEntryPatch', 'MoviesEntryPage', 'MoviesListEntry', 'MoviesBulkStatusRequest']));
    expect(names.filter((name) => !name.startsWith('Movies')).sort()).toEqual(['Error', 'ErrorDetail', 'Message']);
    expect(Object.keys(buildCategoryOpenApi('tvshows').components['schemas'] ?? {})).toContain('TVShowsEntry');
  });

  it("describes each category's own fields", () => {
    const entry = (id: string) => (buildCategoryOpenApi(id).components['schemas'] as Record<string, { properties: Record<string, unknown> }>);
    expect(Object.keys(entry('books')['BooksEntry']!.properties)).toEqual(expect.arrayContaining(['authors', 'isbn', 'pages']));
    expect(Object.keys(entry('movies')['MoviesEntry']!.properties)).not.toContain('isbn');
    expect(entry('tvshows')['TVShowsEntryCreate']!.properties).toHaveProperty('episodes');
  });

  it('merges the three categories without clashes into a valid OpenAPI 3.0 document', async () => {
    const { paths, schemas, clashes } = merged();
    expect(clashes).toEqual([]);
    const document = {
      openapi: '3.0.3',
      info: { title: 'catalog', version: '1' },
      paths,
      components: { schemas, securitySchemes: buildCategoryOpenApi('movies').components['securitySchemes'] },
    };
    await expect(SwaggerParser.validate(JSON.parse(JSON.stringify(document)))).resolves.toBeTruthy();
  });

  it('marks protected operations with bearer security, their scope, and 401/403; every operation lists the common errors', () => {
    const fragment = buildCategoryOpenApi('books');
    for (const [path, item] of Object.entries(fragment.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const isPublic = method === 'get' && (path === '/api/v1/books' || path === '/api/v1/books/{id}');
        const statuses = Object.keys(operation.responses);
        expect(statuses).toEqual(expect.arrayContaining(['400', '401', '408', '429', '500', '502', '503', '504']));
        if (isPublic) {
          expect(operation.security).toBeUndefined();
        } else {
          expect(operation.security).toEqual([{ bearerAuth: [] }]);
          expect(operation.description).toMatch(/`(catalog:write|list:read|list:write)` scope/);
          expect(statuses).toContain('403');
        }
        if (operation.requestBody) expect(statuses).toEqual(expect.arrayContaining(['413', '415']));
      }
    }
  });

  it('fits the registration contract', () => {
    const category = getCategory('books');
    const registration = {
      category: categoryRecord(category),
      base_url: 'http://127.0.0.1:3013',
      version: '1.0.0',
      openapi: buildCategoryOpenApi(category),
    };
    expect(InstanceRegistrationSchema.safeParse(registration).success).toBe(true);
    expect(registration.category).toEqual({ id: 'books', name: 'books', display_name: 'Books', description: expect.any(String), endpoint: '/api/v1/books', icon: 'book' });
  });
});

import SwaggerParser from '@apidevtools/swagger-parser';
import { InstanceRegistrationSchema } from '@mt/contracts';
import { endpointsOpenApi } from '@mt/endpoints';
import { silentLogger } from '@mt/testing';
import { serviceRegistration } from '@mt/registry-client';
import { createMongoConnection } from '@mt/stores';
import { createCatalogModule } from '../composition/catalog-module';
import { CATEGORY_IDS, categoryRecord, getCategory } from '../domain/categories';
import { categoryEndpoints } from './category.endpoints';

type Operation = { security?: unknown[]; description?: string; responses: Record<string, unknown>; requestBody?: unknown; operationId: string };

/** The category's fragment as it registers it (building the endpoints needs no database connection). */
const groupOf = (id: string) => categoryEndpoints(createCatalogModule({ category: getCategory(id), connection: createMongoConnection(), logger: silentLogger(), cursorSecret: 'openapi-spec-cursor-secret-of-32-chars!!' }));
const fragmentOf = (id: string) => endpointsOpenApi([groupOf(id)]);

function merged() {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const clashes: string[] = [];
  for (const id of CATEGORY_IDS) {
    const fragment = fragmentOf(id);
    Object.assign(paths, fragment.paths);
    for (const [name, schema] of Object.entries(fragment.components['schemas'] ?? {})) {
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) clashes.push(name);
      schemas[name] = schema;
    }
  }
  return { paths, schemas, clashes };
}

describe('category OpenAPI fragments', () => {
  it('publishes every operation under /api/v1/<category>, catalog reads before writes, lists after the catalog', () => {
    const fragment = fragmentOf('movies');
    expect(Object.keys(fragment.paths)).toEqual([
      '/api/v1/movies',
      '/api/v1/movies/{id}',
      '/api/v1/movies/{id}/merge',
      '/api/v1/movies/providers/search',
      '/api/v1/movies/providers/import',
      '/api/v1/movies/{id}/refresh',
      '/api/v1/movies/list/changes',
      '/api/v1/movies/list/stats',
      '/api/v1/movies/list/export',
      '/api/v1/movies/list/imports',
      '/api/v1/movies/list/imports/{id}',
      '/api/v1/movies/list/plays',
      '/api/v1/movies/list/plays/batch',
      '/api/v1/movies/list/{item_id}/plays',
      '/api/v1/movies/list/{item_id}/plays/{play_id}',
      '/api/v1/movies/list/{item_id}/rewatch',
      '/api/v1/movies/list',
      '/api/v1/movies/list/{item_id}',
      '/api/v1/movies/list/{item_id}/history',
      '/api/v1/movies/bulk-status',
      '/api/v1/movies/bulk-delete',
    ]);
    expect(fragment.tags?.map((tag) => tag.name)).toEqual(['movies', 'movies list']);
  });

  it('adds episodes, progress and up-next only where the category is episodic', () => {
    const paths = Object.keys(fragmentOf('tvshows').paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/tvshows/{id}/episodes', '/api/v1/tvshows/{id}/seasons/{season}', '/api/v1/tvshows/list/up-next', '/api/v1/tvshows/list/{item_id}/progress']));
    expect(Object.keys(fragmentOf('books').paths).filter((path) => /episodes|seasons|up-next|progress/.test(path))).toEqual([]);
    expect(paths.some((path) => path.startsWith('/internal'))).toBe(false);
  });

  it('declares the schemas every category shares once, and prefixes only what is its own', () => {
    const names = Object.keys(fragmentOf('movies').components['schemas'] ?? {});
    expect(names).toEqual(expect.arrayContaining(['CatalogEntry', 'ListEntry', 'ListEntryPage', 'ListEntryCreate', 'ListEntryPatch', 'BulkStatusRequest', 'MoviesEntry', 'MoviesEntryCreate', 'MoviesEntryPatch', 'MoviesEntryPage']));
    expect(names.filter((name) => name.startsWith('Movies')).sort()).toEqual(['MoviesEntry', 'MoviesEntryCreate', 'MoviesEntryPage', 'MoviesEntryPatch', 'MoviesExportedEntry', 'MoviesListExport']);
    const moviesEntry = fragmentOf('movies').components['schemas']!['MoviesEntry'] as { allOf: Array<{ $ref?: string }> };
    expect(moviesEntry.allOf[0]).toEqual({ $ref: '#/components/schemas/CatalogEntry' });
  });

  it("describes each category's own fields", () => {
    const schemas = (id: string) => fragmentOf(id).components['schemas'] as Record<string, { properties?: Record<string, unknown>; allOf?: Array<{ properties?: Record<string, unknown> }> }>;
    const own = (id: string, name: string) => Object.keys(schemas(id)[name]!.allOf?.[1]?.properties ?? schemas(id)[name]!.properties ?? {});
    expect(own('books', 'BooksEntry')).toEqual(expect.arrayContaining(['authors', 'isbn', 'pages']));
    expect(own('movies', 'MoviesEntry')).not.toContain('isbn');
    expect(own('tvshows', 'TVShowsEntryCreate')).toContain('episodes');
  });

  it('merges the three categories without clashes into a valid OpenAPI 3.0 document', async () => {
    const { paths, schemas, clashes } = merged();
    expect(clashes).toEqual([]);
    const components = fragmentOf('movies').components;
    const document = { openapi: '3.0.3', info: { title: 'catalog', version: '1' }, paths, components: { ...components, schemas } };
    await expect(SwaggerParser.validate(JSON.parse(JSON.stringify(document)))).resolves.toBeTruthy();
  });

  it('marks protected operations with bearer security, their scope, and 401/403; every operation lists 400 and the common errors', () => {
    const fragment = fragmentOf('books');
    for (const [path, item] of Object.entries(fragment.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const isPublic = method === 'get' && (path === '/api/v1/books' || path === '/api/v1/books/{id}');
        // Any signed-in user may search the providers, whatever the credential's scopes.
        const anyUser = path === '/api/v1/books/providers/search';
        const statuses = Object.keys(operation.responses);
        expect(statuses).toEqual(expect.arrayContaining(['400', '401', '408', '429', '500', '502', '503', '504']));
        expect(operation.operationId).toMatch(/^books[A-Z]/);
        if (isPublic) {
          expect(operation.security).toEqual([]);
        } else if (anyUser) {
          expect(operation.security).toEqual([{ bearerAuth: [] }]);
        } else {
          expect(operation.security).toEqual([{ bearerAuth: [] }]);
          expect(operation.description).toMatch(/`(catalog:write|catalog:moderate|list:read|list:write)` scope/);
          expect(statuses).toContain('403');
        }
        if (operation.requestBody) expect(statuses).toEqual(expect.arrayContaining(['413', '415']));
      }
    }
  });

  it('fits the registration contract, manifest included', () => {
    const category = getCategory('books');
    const registration = serviceRegistration({ service: 'books', category: categoryRecord(category), baseUrl: 'http://127.0.0.1:3013', version: '1.0.0', groups: [groupOf('books')] });
    expect(InstanceRegistrationSchema.safeParse(registration).success).toBe(true);
    expect(registration.manifest.routes).toContainEqual({ method: 'POST', path: '/api/v1/books/bulk-status', access: { kind: 'scope', scope: 'list:write' }, body_limit: 1048576 });
    expect(registration.category).toEqual({
      id: 'books',
      name: 'books',
      display_name: 'Books',
      description: expect.any(String),
      endpoint: '/api/v1/books',
      icon: 'book',
      progress_unit: 'pages',
      status_labels: { watching: 'Reading', completed: 'Read', on_hold: 'On hold', dropped: 'Abandoned', plan_to_watch: 'Want to read' },
      providers: [],
    });
    expect(categoryRecord(category, ['openlibrary']).providers).toEqual(['openlibrary']);
  });
});

// The checker the whole suite relies on, tested on its own (no stack): a checker that passes everything
// would make every conformance figure meaningless. Named *.e2e.spec.ts so the e2e project runs it.
import { OpenApiConformance, type OpenApiDocument } from './openapi-conformance';

const json = (ref: string) => ({
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } },
});

const DOCUMENT: OpenApiDocument = {
  openapi: '3.0.3',
  paths: {
    '/health': { get: { responses: { '200': json('HealthReport'), '503': json('UnhealthyReport') } } },
    '/api/v1/movies/{id}': {
      get: { responses: { '200': json('Entry'), '404': json('Error') } },
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    },
    '/api/v1/movies/list': { get: { responses: { '200': json('EntryPage') } } },
    '/api/v1/openapi.json': { get: { responses: { '200': json('OpenApiDocument') } } },
    '/api/v1/docs': {
      get: { responses: { '200': { content: { 'text/html': { schema: { type: 'string' } } } } } },
    },
    '/api/v1/things': { delete: { responses: { '204': { description: 'gone' } } } },
  },
  components: {
    schemas: {
      Healthy: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['healthy'] },
          database: { type: 'string', enum: ['connected'] },
        },
        required: ['status', 'database'],
      },
      Unhealthy: {
        type: 'object',
        properties: { status: { type: 'string', enum: ['unhealthy'] }, error: { type: 'string' } },
        required: ['status', 'error'],
      },
      HealthReport: {
        allOf: [
          { $ref: '#/components/schemas/Healthy' },
          {
            type: 'object',
            properties: {
              version: { type: 'string' },
              services: {
                type: 'object',
                additionalProperties: { $ref: '#/components/schemas/UpstreamHealth' },
              },
            },
            required: ['version'],
          },
        ],
      },
      UnhealthyReport: {
        allOf: [
          { $ref: '#/components/schemas/Unhealthy' },
          { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
        ],
      },
      UpstreamHealth: {
        type: 'object',
        properties: { status: { type: 'string' } },
        required: ['status'],
        additionalProperties: true,
      },
      Entry: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[0-9a-f]{24}$' },
          title: { type: 'string' },
          year: { type: 'integer', nullable: true },
          created_at: { type: 'string', format: 'date-time' },
          item: { $ref: '#/components/schemas/Summary' },
        },
        required: ['id', 'title', 'year', 'created_at'],
      },
      Summary: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      EntryPage: {
        type: 'object',
        properties: {
          data: { type: 'array', items: { $ref: '#/components/schemas/Entry' } },
          total: { type: 'integer' },
        },
        required: ['data', 'total'],
      },
      OpenApiDocument: {
        type: 'object',
        properties: {
          openapi: { type: 'string' },
          info: { type: 'object', properties: {}, additionalProperties: true },
        },
        required: ['openapi'],
        additionalProperties: true,
      },
      Error: {
        type: 'object',
        properties: { error: { type: 'string' }, status: { type: 'integer' } },
        required: ['error', 'status'],
      },
    },
  },
};

const ENTRY = { id: 'a'.repeat(24), title: 'The Matrix', year: 1999, created_at: '2026-11-21T16:11:00.000Z' };
const JSON_TYPE = 'application/json; charset=utf-8';

let checker: OpenApiConformance;
beforeEach(() => {
  checker = new OpenApiConformance(DOCUMENT);
});

describe('OpenApiConformance', () => {
  it('accepts a response that matches its documented schema, and counts it', () => {
    expect(checker.check('GET', `/api/v1/movies/${ENTRY.id}`, 200, ENTRY, JSON_TYPE)).toBeUndefined();
    expect(
      checker.check('get', `/api/v1/movies/${ENTRY.id}?x=1`, 404, { error: 'no', status: 404 }, JSON_TYPE),
    ).toBeUndefined();
    expect(checker.validated).toBe(2);
    expect(checker.failures).toEqual([]);
    expect(checker.summary()).toBe('OpenAPI conformance: 2 responses validated, 0 failed');
  });

  it('rejects a field the schema does not declare, at the top and inside a referenced schema', () => {
    expect(
      checker.check('GET', `/api/v1/movies/${ENTRY.id}`, 200, { ...ENTRY, password_hash: 'x' }, JSON_TYPE),
    ).toMatch(/must NOT have additional properties/);
    expect(
      checker.check(
        'GET',
        '/api/v1/movies/list',
        200,
        { data: [{ ...ENTRY, extra: 1 }], total: 1 },
        JSON_TYPE,
      ),
    ).toMatch(/body\/data\/0 must NOT have additional properties/);
    expect(
      checker.check(
        'GET',
        `/api/v1/movies/${ENTRY.id}`,
        200,
        { ...ENTRY, item: { id: 'x', leak: true } },
        JSON_TYPE,
      ),
    ).toMatch(/body\/item must NOT have additional properties/);
    expect(checker.failures).toHaveLength(3);
    expect(checker.failures[0]).toMatchObject({
      method: 'GET',
      path: `/api/v1/movies/${ENTRY.id}`,
      status: 200,
    });
  });

  it('rejects missing required fields, wrong types, null where not nullable, and bad formats', () => {
    const path = `/api/v1/movies/${ENTRY.id}`;
    expect(checker.check('GET', path, 200, { ...ENTRY, title: undefined }, JSON_TYPE)).toMatch(
      /must have required property 'title'/,
    );
    expect(checker.check('GET', path, 200, { ...ENTRY, year: '1999' }, JSON_TYPE)).toMatch(
      /body\/year must be integer/,
    );
    expect(checker.check('GET', path, 200, { ...ENTRY, title: null }, JSON_TYPE)).toMatch(
      /body\/title must be string/,
    );
    expect(checker.check('GET', path, 200, { ...ENTRY, created_at: 'yesterday' }, JSON_TYPE)).toMatch(
      /must match format "date-time"/,
    );
    expect(checker.check('GET', path, 200, { ...ENTRY, year: null }, JSON_TYPE)).toBeUndefined();
  });

  it('rejects an undocumented status, method or path', () => {
    expect(
      checker.check('GET', `/api/v1/movies/${ENTRY.id}`, 500, { error: 'x', status: 500 }, JSON_TYPE),
    ).toBe('status 500 is not documented for GET /api/v1/movies/{id}');
    expect(checker.check('DELETE', `/api/v1/movies/${ENTRY.id}`, 200, {}, JSON_TYPE)).toBe(
      'DELETE /api/v1/movies/{id} is not documented',
    );
    expect(checker.check('GET', '/api/v1/nowhere', 404, {}, JSON_TYPE)).toBe(
      'path /api/v1/nowhere is not documented',
    );
    expect(checker.check('GET', `/api/v1/movies/${ENTRY.id}/more`, 200, ENTRY, JSON_TYPE)).toMatch(
      /is not documented/,
    );
  });

  it('prefers a literal path segment over a parameter (/movies/list is not /movies/{id})', () => {
    expect(
      checker.check('GET', '/api/v1/movies/list', 200, { data: [ENTRY], total: 1 }, JSON_TYPE),
    ).toBeUndefined();
    expect(checker.check('GET', '/api/v1/movies/list', 200, ENTRY, JSON_TYPE)).toMatch(
      /required property 'data'/,
    );
  });

  it('merges allOf parts: the union of their fields is accepted, anything else is not', () => {
    const healthy = { status: 'healthy', database: 'connected', version: '1.0.0' };
    expect(checker.check('GET', '/health', 200, healthy, JSON_TYPE)).toBeUndefined();
    expect(
      checker.check(
        'GET',
        '/health',
        200,
        { ...healthy, services: { auth: { status: 'healthy', latency_ms: 3 } } },
        JSON_TYPE,
      ),
    ).toBeUndefined();
    expect(checker.check('GET', '/health', 200, { ...healthy, secret: 'x' }, JSON_TYPE)).toMatch(
      /must NOT have additional properties/,
    );
    expect(
      checker.check('GET', '/health', 200, { status: 'healthy', database: 'connected' }, JSON_TYPE),
    ).toMatch(/required property 'version'/);
    expect(
      checker.check(
        'GET',
        '/health',
        503,
        { status: 'unhealthy', error: 'database unreachable', version: '1' },
        JSON_TYPE,
      ),
    ).toBeUndefined();
    expect(
      checker.check('GET', '/health', 503, { status: 'healthy', error: 'x', version: '1' }, JSON_TYPE),
    ).toMatch(/must be equal to one of/);
  });

  it('keeps schemas that declare additionalProperties open', () => {
    const document = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: {}, components: {} };
    expect(checker.check('GET', '/api/v1/openapi.json', 200, document, JSON_TYPE)).toBeUndefined();
  });

  it('requires a documented content type, and no body where none is documented', () => {
    expect(
      checker.check('GET', '/api/v1/docs', 200, '<html></html>', 'text/html; charset=utf-8'),
    ).toBeUndefined();
    expect(checker.check('GET', '/api/v1/docs', 200, {}, JSON_TYPE)).toMatch(
      /content type application\/json; charset=utf-8 is not documented/,
    );
    expect(checker.check('GET', `/api/v1/movies/${ENTRY.id}`, 200, 'text', 'text/plain')).toMatch(
      /is not documented/,
    );
    expect(checker.check('GET', `/api/v1/movies/${ENTRY.id}`, 200, ENTRY, undefined)).toMatch(
      /content type \(none\)/,
    );
    expect(checker.check('DELETE', '/api/v1/things', 204, '', undefined)).toBeUndefined();
    expect(checker.check('DELETE', '/api/v1/things', 204, { surprise: true }, JSON_TYPE)).toMatch(
      /documents none/,
    );
  });

  it('accepts only the error payload for a request the document deliberately does not describe', () => {
    const error = { error: 'no route', status: 404 };
    expect(checker.checkUndocumented('GET', '/api/v1/nowhere', 404, error, JSON_TYPE)).toBeUndefined();
    expect(
      checker.checkUndocumented(
        'PUT',
        `/api/v1/movies/${ENTRY.id}`,
        405,
        { ...error, status: 405 },
        JSON_TYPE,
      ),
    ).toBeUndefined();
    expect(
      checker.checkUndocumented('GET', '/api/v1/nowhere', 404, { ...error, stack: 'at x' }, JSON_TYPE),
    ).toMatch(/additional properties/);
    expect(checker.checkUndocumented('GET', '/api/v1/nowhere', 200, {}, JSON_TYPE)).toMatch(
      /only an error may answer it/,
    );
    expect(checker.checkUndocumented('GET', '/api/v1/nowhere', 404, '<h1>404</h1>', 'text/html')).toMatch(
      /not the error payload's/,
    );
    expect(checker.checkUndocumented('GET', `/api/v1/movies/${ENTRY.id}`, 404, error, JSON_TYPE)).toMatch(
      /is documented/,
    );
    expect(checker.validated).toBe(6);
    expect(checker.failures).toHaveLength(4);
  });

  it('does not change the document it was given', () => {
    const copy = structuredClone(DOCUMENT);
    new OpenApiConformance(DOCUMENT).check('GET', '/health', 200, {}, JSON_TYPE);
    expect(DOCUMENT).toEqual(copy);
  });
});

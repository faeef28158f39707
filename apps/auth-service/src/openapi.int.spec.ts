import SwaggerParser from '@apidevtools/swagger-parser';
import { endpointsOpenApi } from '@mt/endpoints';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenAPIV3 } from 'openapi-types';
import request from 'supertest';
import { createPat, registerUser, startAuthHarness, type AuthHarness } from '../test/auth-harness';
import { asJwtUser, asPatUser } from '../test/identity-headers';
import { authEndpoints } from './auth.endpoints';

const COMMON = ['408', '429', '500', '502', '503', '504'];
const EXPECTED_STATUSES: Record<string, string[]> = {
  'post /api/v1/auth/register': ['201', '400', '401', '409', '413', '415', '422'],
  'post /api/v1/auth/login': ['200', '400', '401', '409', '413', '415', '422'],
  'get /api/v1/auth/me': ['200', '400', '401', '403'],
  'put /api/v1/auth/me': ['200', '400', '401', '403', '409', '413', '415'],
  'delete /api/v1/auth/me': ['200', '400', '401', '403'],
  'put /api/v1/auth/password': ['200', '400', '401', '403', '413', '415'],
  'get /api/v1/auth/tokens': ['200', '400', '401', '403'],
  'post /api/v1/auth/tokens': ['201', '400', '401', '403', '409', '413', '415', '422'],
  'delete /api/v1/auth/tokens/{id}': ['200', '400', '401', '403', '404'],
  'put /api/v1/auth/users/{id}/role': ['200', '400', '401', '403', '404', '409', '413', '415'],
};

let harness: AuthHarness | undefined;

/** The fragment the service registers, derived from its endpoint declarations. */
async function document(): Promise<OpenAPIV3.Document> {
  harness ??= await startAuthHarness();
  const fragment = endpointsOpenApi([authEndpoints(harness.auth)]);
  return {
    openapi: '3.0.3',
    info: { title: 'auth', version: '1' },
    paths: fragment.paths as OpenAPIV3.PathsObject,
    components: fragment.components as OpenAPIV3.ComponentsObject,
  };
}

/** Every object schema without an explicit additionalProperties gets `false`: extra response fields fail. */
function closeObjects(node: unknown, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  const schema = node as Record<string, unknown>;
  if (schema['type'] === 'object' && schema['properties'] && schema['additionalProperties'] === undefined) schema['additionalProperties'] = false;
  for (const value of Object.values(schema)) closeObjects(value, seen);
}

function operations(doc: OpenAPIV3.Document): Array<[string, OpenAPIV3.OperationObject]> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    (['get', 'post', 'put', 'delete', 'patch'] as const)
      .filter((method) => item?.[method])
      .map((method): [string, OpenAPIV3.OperationObject] => [`${method} ${path}`, item![method]!]),
  );
}

afterAll(() => harness?.close());

describe('OpenAPI description', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    await expect(SwaggerParser.validate(await document())).resolves.toBeDefined();
  });

  it('lists every error status each operation can return, and the scope of protected ones', async () => {
    const doc = await document();
    const ops = operations(doc);
    expect(ops.map(([key]) => key).sort()).toEqual(Object.keys(EXPECTED_STATUSES).sort());
    for (const [key, operation] of ops) {
      expect({ key, statuses: Object.keys(operation.responses).sort() }).toEqual({ key, statuses: [...EXPECTED_STATUSES[key]!, ...COMMON].sort() });
      const isPublic = key.endsWith('/register') || key.endsWith('/login');
      if (isPublic) expect(operation.security).toEqual([]);
      else {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(operation.description).toMatch(/`(profile:read|account)` scope/);
      }
    }
    const login = doc.paths['/api/v1/auth/login']!.post!;
    expect((login.responses['429'] as OpenAPIV3.ResponseObject).headers).toHaveProperty('Retry-After');
  });

  it('closes request bodies: unknown fields are not allowed', async () => {
    const doc = (await SwaggerParser.dereference(await document())) as OpenAPIV3.Document;
    for (const [key, operation] of operations(doc)) {
      const body = operation.requestBody as OpenAPIV3.RequestBodyObject | undefined;
      if (!body) continue;
      const schema = body.content['application/json']!.schema as OpenAPIV3.SchemaObject;
      expect({ key, additionalProperties: schema.additionalProperties }).toEqual({ key, additionalProperties: false });
    }
  });
});

describe('real responses match the OpenAPI description', () => {
  let h: AuthHarness;
  let doc: OpenAPIV3.Document;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);

  beforeAll(async () => {
    h = await startAuthHarness();
    doc = (await SwaggerParser.dereference(await document())) as OpenAPIV3.Document;
  });
  afterAll(() => h.close());

  function conforms(method: string, path: string, res: request.Response): void {
    const operation = (doc.paths[path] as Record<string, OpenAPIV3.OperationObject>)[method]!;
    const response = operation.responses[String(res.status)] as OpenAPIV3.ResponseObject | undefined;
    expect({ path, method, status: res.status, documented: response !== undefined }).toMatchObject({ documented: true });
    const schema = response!.content!['application/json']!.schema!;
    closeObjects(schema);
    const validate = ajv.compile(schema);
    expect({ path, method, status: res.status, errors: validate(res.body) ? null : validate.errors }).toMatchObject({ errors: null });
  }

  it('for every operation, success and errors alike', async () => {
    const user = await registerUser(h.app);
    const other = await registerUser(h.app);
    const checks: Array<[string, string, request.Test]> = [
      ['post', '/api/v1/auth/register', request(h.app).post('/api/v1/auth/register').send({ username: 'schema_user', email: 'schema@example.com', password: 'long enough' })],
      ['post', '/api/v1/auth/register', request(h.app).post('/api/v1/auth/register').send({ username: user.username, email: 'x@example.com', password: 'long enough' })],
      ['post', '/api/v1/auth/register', request(h.app).post('/api/v1/auth/register').send({ nope: 1 })],
      ['post', '/api/v1/auth/register', request(h.app).post('/api/v1/auth/register').set('content-type', 'text/plain').send('hello')],
      ['post', '/api/v1/auth/login', request(h.app).post('/api/v1/auth/login').send({ username: user.username, password: user.password })],
      ['post', '/api/v1/auth/login', request(h.app).post('/api/v1/auth/login').send({ username: user.username, password: 'wrong' })],
      ['get', '/api/v1/auth/me', request(h.app).get('/api/v1/auth/me').set(asJwtUser(user.id))],
      ['get', '/api/v1/auth/me', request(h.app).get('/api/v1/auth/me')],
      ['get', '/api/v1/auth/me', request(h.app).get('/api/v1/auth/me').set(asPatUser(user.id, ['list:read']))],
      ['put', '/api/v1/auth/me', request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ email: 'renamed.schema@example.com' })],
      ['put', '/api/v1/auth/me', request(h.app).put('/api/v1/auth/me').set(asJwtUser(user.id)).send({ username: other.username })],
      ['put', '/api/v1/auth/password', request(h.app).put('/api/v1/auth/password').set(asJwtUser(user.id)).send({ current_password: 'wrong', new_password: 'long enough' })],
      ['put', '/api/v1/auth/password', request(h.app).put('/api/v1/auth/password').set(asJwtUser(user.id)).send({ current_password: user.password, new_password: 'long enough' })],
      ['get', '/api/v1/auth/tokens', request(h.app).get('/api/v1/auth/tokens').set(asJwtUser(user.id))],
      ['post', '/api/v1/auth/tokens', request(h.app).post('/api/v1/auth/tokens').set(asJwtUser(user.id)).send({ name: 'schema' })],
      ['post', '/api/v1/auth/tokens', request(h.app).post('/api/v1/auth/tokens').set(asJwtUser(user.id)).send({ name: 'schema' })],
      ['delete', '/api/v1/auth/tokens/{id}', request(h.app).delete('/api/v1/auth/tokens/0123456789abcdef01234567').set(asJwtUser(user.id))],
      ['delete', '/api/v1/auth/tokens/{id}', request(h.app).delete('/api/v1/auth/tokens/bad').set(asJwtUser(user.id))],
      ['delete', '/api/v1/auth/me', request(h.app).delete('/api/v1/auth/me').set(asJwtUser(other.id))],
    ];
    const statuses: number[] = [];
    for (const [method, path, pending] of checks) {
      const res = await pending;
      statuses.push(res.status);
      conforms(method, path, res);
    }
    expect(statuses).toEqual([201, 409, 400, 415, 200, 401, 200, 401, 403, 200, 409, 403, 200, 200, 201, 409, 404, 400, 200]);
    const pat = await createPat(h.app, user.id, { name: 'listed' });
    const list = await request(h.app).get('/api/v1/auth/tokens').set(asJwtUser(user.id)).expect(200);
    conforms('get', '/api/v1/auth/tokens', list);
    const revoked = await request(h.app).delete(`/api/v1/auth/tokens/${pat.id}`).set(asJwtUser(user.id)).expect(200);
    conforms('delete', '/api/v1/auth/tokens/{id}', revoked);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findWorkspaceRoot } from '@mt/stack';
import type { CreatedToken, LoginResponse } from './support/api-types';
import { startTestStack, type TestStack } from './support/test-stack';

/**
 * The contract as a whole, over a stack of processes: the routes the gateway learns from the services'
 * manifests, unknown query parameters on every operation, the served document against the project's
 * Redocly configuration, and a category with an endpoint of its own that no gateway code names.
 */

type Operation = { operationId: string; security?: unknown[]; responses: Record<string, unknown>; parameters?: Array<{ in: string; name: string; schema?: { type?: string } }> };
type OpenApi = { paths: Record<string, Record<string, Operation>> };
type RouteTable = { services: Array<{ service: string; manifest: { routes: Array<{ method: string; path: string; access: { kind: string; scope?: string } }> } }> };

/** Every public route of the contract (docs/api.md), by method and path template. */
const CONTRACT_ROUTES = [
  'POST /api/v1/auth/register', 'POST /api/v1/auth/login', 'GET /api/v1/auth/me', 'PUT /api/v1/auth/me', 'DELETE /api/v1/auth/me',
  'PUT /api/v1/auth/password', 'GET /api/v1/auth/tokens', 'POST /api/v1/auth/tokens', 'DELETE /api/v1/auth/tokens/{id}',
  ...['movies', 'tvshows', 'books'].flatMap((c) => [
    `GET /api/v1/${c}`, `POST /api/v1/${c}`, `GET /api/v1/${c}/{id}`, `PATCH /api/v1/${c}/{id}`,
    `GET /api/v1/${c}/list/changes`, `GET /api/v1/${c}/list`, `POST /api/v1/${c}/list`, `GET /api/v1/${c}/list/{item_id}`, `PATCH /api/v1/${c}/list/{item_id}`,
    `DELETE /api/v1/${c}/list/{item_id}`, `POST /api/v1/${c}/bulk-status`, `POST /api/v1/${c}/bulk-delete`,
  ]),
];

let stack: TestStack;
let jwt: string;
let userId: string;

beforeAll(async () => {
  // An admin (ADMIN_USERNAMES): its JWT carries catalog:moderate, so every operation is reached past its scope check.
  stack = await startTestStack({ name: 'contract', env: { ADMIN_USERNAMES: 'contract_user' } });
  await stack.api.post('/api/v1/auth/register', { username: 'contract_user', email: 'contract@example.com', password: 'correct horse battery' });
  const login = await stack.api.post<LoginResponse>('/api/v1/auth/login', { username: 'contract_user', password: 'correct horse battery' });
  jwt = login.body.access_token;
  userId = login.body.user.id;
}, 180_000);
afterAll(() => stack?.stop());

const served = async (): Promise<OpenApi> => (await (await fetch(`${stack.gatewayUrl}/api/v1/openapi.json`)).json()) as OpenApi;

describe('routes the gateway learns from the services', () => {
  it('holds a manifest route for every public route of the contract, and nothing of another service in its source', async () => {
    const res = await fetch(`${stack.stack.processes.find((p) => p.name === 'registry-service')!.url}/internal/routes`, {
      headers: { 'x-mt-internal-secret': stack.stack.internalSecret },
    });
    const table = (await res.json()) as RouteTable;
    const routed = table.services.flatMap((s) => s.manifest.routes.map((r) => `${r.method} ${r.path}`));
    expect(routed).toEqual(expect.arrayContaining(CONTRACT_ROUTES));
  });
});

describe('unknown query parameters', () => {
  it('are a 400 validation_failed on every operation of the served document, and documented as such', async () => {
    const doc = await served();
    const checked: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      if (!template.startsWith('/api/v1/') || template.startsWith('/api/v1/docs/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        expect({ operation: operation.operationId, documents400: '400' in operation.responses }).toEqual({ operation: operation.operationId, documents400: true });
        // A well-formed value for each path parameter (an id, or a number), so only the query is wrong.
        const integers = new Set((operation.parameters ?? []).filter((p) => p.in === 'path' && p.schema?.type === 'integer').map((p) => p.name));
        const path = template.replace(/\{([^}]+)\}/g, (_whole, name: string) => (integers.has(name) ? '1' : 'f'.repeat(24)));
        const url = `${stack.gatewayUrl}${path}?zz_unknown=1`;
        const response = await fetch(url, { method: method.toUpperCase(), headers: { authorization: `Bearer ${jwt}` } });
        const body = (await response.json()) as { code?: string; details?: Array<{ path: string; message: string }> };
        expect({ operation: operation.operationId, status: response.status, code: body.code, details: body.details }).toEqual({
          operation: operation.operationId,
          status: 400,
          code: 'validation_failed',
          // An operation with a required parameter (an import's `source`) reports its absence beside it.
          details: expect.arrayContaining([{ path: 'zz_unknown', message: 'unknown query parameter' }]),
        });
        checked.push(operation.operationId);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['authGetMe', 'authDeleteMe', 'authChangePassword', 'authLogin', 'moviesSearchEntries', 'booksBulkUpdateStatus']));
    // The account is still there: the 400 came before anything was done.
    expect((await fetch(`${stack.gatewayUrl}/api/v1/auth/me`, { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(200);
  });
});

describe('the served OpenAPI document', () => {
  it('passes `redocly lint` with the project configuration: no error, no warning', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mt-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(await served()));
      const root = findWorkspaceRoot();
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'], {
        maxBuffer: 32 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
      const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: unknown[] };
      expect({ totals: report.totals, problems: report.problems }).toEqual({ totals: expect.objectContaining({ errors: 0, warnings: 0 }), problems: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a test-only category with an endpoint of its own (no gateway code names it)', () => {
  it('is routed with its scope: 200 with it, 403 without, 405 for another method', async () => {
    const module = path.join(__dirname, 'fixtures', 'games-category.cjs');
    expect(readFileSync(module, 'utf8')).toContain("path: '/list/summary'");
    const games = await stack.stack.startCatalogInstance('games', { env: { CATEGORY_MODULE: module } });
    try {
      await games.waitReady(60_000);
      await stack.eventually(async () => {
        const categories = (await (await fetch(`${stack.gatewayUrl}/api/v1/categories`)).json()) as Array<{ id: string }>;
        if (!categories.some((c) => c.id === 'games')) throw new Error('games not routed yet');
      }, { timeoutMs: 15_000 });
      const token = async (scopes: string[]) =>
        (await stack.api.post<CreatedToken>('/api/v1/auth/tokens', { name: `games-${scopes.join('-')}`, scopes }, { token: jwt })).body.token;
      const reader = await token(['list:read']);
      const writer = await token(['list:write']);
      const call = (token: string, method = 'GET') => fetch(`${stack.gatewayUrl}/api/v1/games/list/summary`, { method, headers: { authorization: `Bearer ${token}` } });

      const allowed = await call(reader);
      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toEqual({ games_on_list: 0 });
      const forbidden = await call(writer);
      expect(forbidden.status).toBe(403);
      expect(await forbidden.json()).toMatchObject({ code: 'forbidden', error: "token lacks the 'list:read' scope" });
      const wrongMethod = await call(reader, 'POST');
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
      expect((await served()).paths['/api/v1/games/list/summary']?.['get']?.operationId).toBe('gamesGetListSummary');
      expect(userId).toMatch(/^[0-9a-f]{24}$/);
    } finally {
      await games.stop();
    }
  });
});

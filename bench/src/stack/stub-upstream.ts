import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { INTERNAL_PATHS, type InstanceRegistration, type ManifestRoute } from '@mt/contracts';
import { freePort } from '@mt/stack';
import { HttpClient } from '../load/http-client';

/**
 * A stand-in upstream that answers every request at once with the same 8 kB JSON page (the size of a
 * catalog page of 20 entries), without a database: what the gateway costs per proxied request can then be
 * measured at thousands of requests per second, where its idle timers and background work are noise,
 * instead of at the few dozen a second the test database allows.
 */
const STUB = `
const http = require('node:http');
const page = JSON.stringify({ data: Array.from({ length: 20 }, (_, i) => ({ id: String(i).padStart(24, '0'), title: 'Some Title ' + i,
  year: 1990 + i, description: 'A quiet film about two brothers who discover a secret.', genres: ['Drama', 'Comedy'],
  created_by: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', runtime_minutes: 120,
  director: 'Ana Costa' })), page: 1, limit: 20, total: 100000, total_pages: 5000 });
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/readyz') return res.end('{"status":"healthy"}');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(page) });
    res.end(page);
  });
});
server.keepAliveTimeout = 65000;
let connections = 0, requests = 0;
server.on('connection', () => connections++);
server.on('request', () => requests++);
// How many connections the proxies in front opened: a keep-alive pool that works opens few.
process.on('SIGTERM', () => { if (process.env.STUB_REPORT) process.stderr.write('stub upstream: ' + connections + ' connections, ' + requests + ' requests\\n'); process.exit(0); });
server.listen(Number(process.argv[1]), '127.0.0.1');
`;

/** The stub's service id under /api/v1 and its two routes: a public read and one that needs `list:read`. */
export const STUB_SERVICE = 'benchstub';
export const STUB_ROUTES = { public: `/api/v1/${STUB_SERVICE}/page`, scoped: `/api/v1/${STUB_SERVICE}/mine` } as const;

export interface StubUpstream {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function startStubUpstream(): Promise<StubUpstream> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['-e', STUB, String(port)], { stdio: 'inherit' });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const client = new HttpClient(1);
  try {
    const deadline = Date.now() + 10_000;
    while ((await client.send(`${url}/readyz`, { timeoutMs: 1000 }).catch(() => undefined))?.status !== 200) {
      if (Date.now() > deadline) throw new Error('the stub upstream did not start within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    client.close();
  }
  return {
    url,
    port,
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Registers the stub with the registry as an instance of `benchstub` (a public route and a `list:read`
 * route), and keeps it registered with heartbeats until `stop()`, which deregisters it.
 */
export async function registerStub(
  registryUrl: string,
  internalSecret: string,
  stubUrl: string,
): Promise<{ stop(): Promise<void> }> {
  const routes: ManifestRoute[] = [
    { method: 'GET', path: STUB_ROUTES.public, access: { kind: 'public' }, body_limit: 0 },
    { method: 'GET', path: STUB_ROUTES.scoped, access: { kind: 'scope', scope: 'list:read' }, body_limit: 0 },
  ];
  const registration: InstanceRegistration = {
    service: STUB_SERVICE,
    base_url: stubUrl,
    version: 'stub',
    manifest: { digest: createHash('sha256').update(JSON.stringify(routes)).digest('hex'), routes },
    openapi: { paths: {}, components: {} },
  };
  const client = new HttpClient(1);
  const instanceUrl = `${registryUrl}${INTERNAL_PATHS.registryInstance(`${STUB_SERVICE}-1`)}`;
  const headers = { 'x-mt-internal-secret': internalSecret };
  const register = async () => {
    const answer = await client.send(instanceUrl, { method: 'PUT', headers, json: registration });
    if (answer.status !== 200 && answer.status !== 201)
      throw new Error(`registering the stub upstream: ${answer.status} ${answer.body.slice(0, 300)}`);
  };
  await register().catch(() => register());
  const heartbeat = setInterval(() => void register().catch(() => undefined), 8000);
  return {
    async stop() {
      clearInterval(heartbeat);
      await client.send(instanceUrl, { method: 'DELETE', headers }).catch(() => undefined);
      client.close();
    },
  };
}

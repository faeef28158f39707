import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, ApiNetworkError } from './api-error';
import { ApiClient } from './client';
import { waitRetryAfter, type RateLimited } from './transport';

/** A real HTTP server whose answers the test scripts, one handler per request in order. */
async function scriptedServer(handlers: Array<(req: IncomingMessage, body: string, res: ServerResponse) => void>) {
  const seen: Array<{ method: string; url: string; body: string; authorization: string | undefined }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, authorization: req.headers.authorization });
      const handler = handlers[Math.min(seen.length - 1, handlers.length - 1)];
      handler?.(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'rid-1', ...headers });
  res.end(JSON.stringify(body));
};
const limited = (seconds: string) => (_req: IncomingMessage, _body: string, res: ServerResponse) =>
  json(res, 429, { error: 'too many requests', status: 429, timestamp: 't', code: 'rate_limited', request_id: 'rid-1' }, { 'retry-after': seconds });
const entry = { item_id: '65f1c0ffee0000000000abcd', status: 'completed' };

describe('the client transport', () => {
  it('waits Retry-After on a 429 and sends the same request again, body included', async () => {
    const server = await scriptedServer([limited('1'), (_req, _body, res) => json(res, 201, entry)]);
    const waits: Array<[number, RateLimited['attempt']]> = [];
    const client = new ApiClient({
      baseUrl: server.url,
      token: () => 'mtp_secret',
      onRateLimited: waitRetryAfter({ onWait: (seconds, info) => waits.push([seconds, info.attempt]) }),
    });
    const started = Date.now();
    await expect(client.addListEntry('movies', { item_id: entry.item_id })).resolves.toEqual(entry);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(waits).toEqual([[1, 1]]);
    expect(server.seen.map((request) => [request.method, request.url, JSON.parse(request.body), request.authorization])).toEqual([
      ['POST', '/api/v1/movies/list', { item_id: entry.item_id }, 'Bearer mtp_secret'],
      ['POST', '/api/v1/movies/list', { item_id: entry.item_id }, 'Bearer mtp_secret'],
    ]);
    await server.close();
  });

  it('hands a 429 over when Retry-After is longer than the bound, without waiting', async () => {
    const server = await scriptedServer([limited('120')]);
    const client = new ApiClient({ baseUrl: server.url, onRateLimited: waitRetryAfter({ maxWaitSeconds: 60 }) });
    const started = Date.now();
    const error = await client.categories().catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 120, requestId: 'rid-1' });
    expect(server.seen).toHaveLength(1);
    await server.close();
  });

  it('gives up after the most attempts the policy allows', async () => {
    const server = await scriptedServer([limited('0')]);
    const client = new ApiClient({ baseUrl: server.url, onRateLimited: waitRetryAfter({ maxAttempts: 2 }) });
    await expect(client.categories()).rejects.toMatchObject({ code: 'rate_limited' });
    expect(server.seen).toHaveLength(3);
    await server.close();
  });

  it('reports an unreachable server as ApiNetworkError naming the socket error', async () => {
    const server = await scriptedServer([]);
    await server.close();
    const client = new ApiClient({ baseUrl: server.url });
    const error = await client.categories().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect((error as ApiNetworkError).message).toBe(`could not reach ${server.url}: ECONNREFUSED`);
    expect((error as ApiNetworkError).timedOut).toBe(false);
  });

  it('reports a server that does not answer in time as a timed-out ApiNetworkError', async () => {
    const server = await scriptedServer([(_req, _body, res) => setTimeout(() => json(res, 200, []), 1500)]);
    const client = new ApiClient({ baseUrl: server.url, timeoutMs: 200 });
    const error = await client.categories().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ timedOut: true, message: `no answer from ${server.url} within 200 ms` });
    await server.close();
  });

  it('keeps its deadline through garbage collections while the server is silent', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const server = await scriptedServer([(_req, _body, res) => setTimeout(() => json(res, 200, []), 1500)]);
    const client = new ApiClient({ baseUrl: server.url, timeoutMs: 300 });
    const pending = client.categories().catch((caught: unknown) => caught);
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      gc();
    }
    const error = await pending;
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).toMatchObject({ timedOut: true });
    await server.close();
  });

  it('sends no Authorization header when the token provider has none', async () => {
    const server = await scriptedServer([(_req, _body, res) => json(res, 200, [])]);
    const client = new ApiClient({ baseUrl: server.url, token: () => undefined });
    await expect(client.categories()).resolves.toEqual([]);
    expect(server.seen[0]?.authorization).toBeUndefined();
    await server.close();
  });

  it('refuses a category name that would change the path, before any request', async () => {
    const server = await scriptedServer([(_req, _body, res) => json(res, 200, {})]);
    const client = new ApiClient({ baseUrl: server.url });
    expect(() => client.listEntries('../auth/me')).toThrow('not a category name: "../auth/me"');
    expect(server.seen).toHaveLength(0);
    await server.close();
  });
});

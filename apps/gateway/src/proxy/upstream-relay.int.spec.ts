import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { rawRequest } from '../../test/http-client';
import { startHttpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';

/** An upstream whose handler each test chooses; it records when a request it received was closed early. */
function scriptedUpstream() {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const closedEarly: string[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    res.once('close', () => {
      if (!res.writableFinished) closedEarly.push(req.url ?? '');
    });
    handler(req, res);
  };
  return {
    listener,
    closedEarly,
    handle(next: typeof handler) {
      handler = next;
    },
  };
}

const waitFor = async (condition: () => boolean, timeoutMs = 3000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('gateway relaying upstream responses', () => {
  const upstream = scriptedUpstream();
  let upstreamServer: RunningServer;
  let gateway: TestGateway;
  let gatewayServer: RunningServer;

  beforeAll(async () => {
    upstreamServer = await startHttpServer(upstream.listener);
    const routeTable = new StaticRouteTable().setInstances('movies', [{ id: 'm1', url: upstreamServer.url }]);
    gateway = await startTestGateway({
      routeTable,
      authUrl: upstreamServer.url,
      env: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    gatewayServer = await startHttpServer(gateway.app);
  });

  afterAll(async () => {
    await gatewayServer.close();
    await gateway.close();
    await upstreamServer.close();
  });

  it("passes the upstream's status, message, headers and body, but not its hop-by-hop headers or what it runs on", async () => {
    upstream.handle((_req, res) => {
      res.writeHead(201, 'Made It', {
        'Content-Type': 'application/json',
        'X-Custom': 'kept',
        'Set-Cookie': ['a=1', 'b=2'],
        Server: 'upstream-server/1.0',
        'X-Powered-By': 'Express',
        'Keep-Alive': 'timeout=1',
        'Proxy-Connection': 'keep-alive',
      });
      res.end('{"ok":true}');
    });
    const res = await new Promise<IncomingMessage & { body: string }>((resolve, reject) => {
      httpRequest(`${gatewayServer.url}/api/v1/movies/x`, { agent: false }, (answer) => {
        let body = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => resolve(Object.assign(answer, { body })));
      })
        .on('error', reject)
        .end();
    });
    expect(res.statusCode).toBe(201);
    expect(res.statusMessage).toBe('Made It');
    expect(res.body).toBe('{"ok":true}');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-custom']).toBe('kept');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['server']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['proxy-connection']).toBeUndefined();
    expect(res.headers['keep-alive']).not.toBe('timeout=1');
    // The gateway's own headers are still there.
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('ends the client response when the upstream dies in the middle of the body', async () => {
    upstream.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const outcome = await new Promise<string>((resolve) => {
      httpRequest(`${gatewayServer.url}/api/v1/movies/dying`, { agent: false }, (answer) => {
        answer.on('data', () => undefined);
        answer.on('end', () => resolve('complete'));
        answer.on('aborted', () => resolve('aborted'));
        answer.on('error', () => resolve('aborted'));
      })
        .on('error', () => resolve('aborted'))
        .end();
    });
    expect(outcome).toBe('aborted');
  });

  it('stops the upstream request when the client goes away before the answer', async () => {
    upstream.handle(() => undefined); // never answers
    const client = httpRequest(`${gatewayServer.url}/api/v1/movies/abandoned`, { agent: false });
    client.on('error', () => undefined);
    client.end();
    await waitFor(() => upstreamServer.connections() > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.destroy();
    // Well before the proxy timeout (2 s in the test gateway) would end it.
    await waitFor(() => upstream.closedEarly.includes('/api/v1/movies/abandoned'), 1000);
    // The gateway keeps serving.
    upstream.handle((_req, res) => res.end('{"again":true}'));
    const next = await rawRequest(gatewayServer.url, { path: '/api/v1/movies/next' });
    expect(next.status).toBe(200);
    expect(next.json()).toEqual({ again: true });
  });
});

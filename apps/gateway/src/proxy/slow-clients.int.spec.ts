import { startService, type RunningService } from '@mt/http';
import { createLifecycle } from '@mt/probes';
import { sendAndStall, silentLogger, type SlowClientAnswer } from '@mt/testing';
import { startTestGateway, type TestGateway } from '../../test/gateway';
import { createSigningKey, signJwt } from '../../test/keys';
import { startTcpServer, type RunningServer } from '../../test/servers';
import { StaticRouteTable } from '../../test/static-route-table';
import {
  startEchoUpstream,
  startFakeAuthService,
  type EchoUpstream,
  type FakeAuthService,
} from '../../test/upstreams';

/**
 * The gateway as it runs (its server with the request timeout) in front of real upstreams, against clients
 * that never finish their request. The upstream deadline is shorter than the request timeout, as in the
 * report: a missing body used to be a 504 "movies service did not answer in time" after the upstream
 * deadline; it is the client's 408, at the request timeout.
 */
const PROXY_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2500;
const SLACK_MS = 1500;

describe('gateway: slow clients are answered 408, never blamed on an upstream', () => {
  const key = createSigningKey('k1');
  let auth: FakeAuthService;
  let movies: EchoUpstream;
  let stalled: RunningServer;
  let gateway: TestGateway;
  let served: RunningService;
  let bearer: string;

  beforeAll(async () => {
    auth = await startFakeAuthService([key]);
    movies = await startEchoUpstream('movies-1');
    // An upstream that accepts the connection and then never reads a byte.
    stalled = await startTcpServer((socket) => socket.pause());
    const routeTable = new StaticRouteTable()
      .setInstances('movies', [{ id: 'movies-1', url: movies.url }])
      .setInstances('stalls', [{ id: 'stalls-1', url: stalled.url }]);
    gateway = await startTestGateway({
      routeTable,
      authUrl: auth.url,
      env: {
        PROXY_TIMEOUT_MS: String(PROXY_TIMEOUT_MS),
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        RATE_LIMIT_PER_MINUTE: '0',
      },
    });
    const lifecycle = createLifecycle();
    served = await startService({
      name: 'gateway',
      app: gateway.app,
      logger: silentLogger(),
      lifecycle,
      port: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
      requestTimeoutMs: gateway.config.REQUEST_TIMEOUT_MS,
      startup: async () => undefined,
      shutdown: async () => undefined,
    });
    await served.started;
    bearer = `Bearer ${signJwt(key, { sub: 'slow-user' })}`;
  });

  afterAll(async () => {
    await served.stop();
    await gateway.close();
    await Promise.all([auth, movies, stalled].map((server) => server.close()));
  });

  const expectClientTimeout = (answer: SlowClientAnswer, requestId?: string) => {
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 408,
      body: {
        error: 'request not received in time (headers and body are due within 2.5 s)',
        status: 408,
        code: 'request_timeout',
        timestamp: expect.any(String),
        request_id: requestId ?? expect.any(String),
      },
    });
    expect(answer.headers.get('x-request-id')).toBe((answer.body as { request_id: string }).request_id);
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(answer.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
  };

  it('answers POST /api/v1/movies with Content-Length: 100 and no body with 408, not 504', async () => {
    const answer = await sendAndStall(
      served.port,
      `POST /api/v1/movies HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\nX-Request-Id: missing-body-1\r\n\r\n',
    );
    expectClientTimeout(answer, 'missing-body-1');
  });

  it('answers a chunked body that never ends with 408', async () => {
    const answer = await sendAndStall(
      served.port,
      `POST /api/v1/movies HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n',
      { trickle: { bytes: '1\r\na\r\n', everyMs: 200 } },
    );
    expectClientTimeout(answer);
  });

  it('answers never-ending headers with 408', async () => {
    const answer = await sendAndStall(served.port, 'GET /api/v1/movies HTTP/1.1\r\nHost: x\r\n', {
      trickle: { bytes: 'X-More: 1\r\n', everyMs: 200 },
    });
    expectClientTimeout(answer);
  });

  it('still answers 504 when the upstream stops reading a body the client keeps sending', async () => {
    const chunk = 'a'.repeat(256 * 1024);
    const answer = await sendAndStall(
      served.port,
      `POST /api/v1/stalls HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\n` +
        'Transfer-Encoding: chunked\r\n\r\n',
      { trickle: { bytes: `${chunk.length.toString(16)}\r\n${chunk}\r\n`, everyMs: 5 } },
    );
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({
      status: 504,
      code: 'gateway_timeout',
      error: 'stalls service did not answer in time',
    });
    // The 504 itself says the upstream's deadline won over the client's (that one answers 408); how long the
    // trickling client took to be answered depends on the machine's load, so it is not asserted.
  });

  it('serves a complete request as before, and closes the connection the client asked to close', async () => {
    const body = '{"title":"on time"}';
    const answer = await sendAndStall(
      served.port,
      `POST /api/v1/movies HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ instance: 'movies-1', body_bytes: body.length });
  });
});

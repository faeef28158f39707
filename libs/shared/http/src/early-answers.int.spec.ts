import { errors } from '@mt/errors';
import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { keepAliveExchange, requestWithBody, silentLogger } from '@mt/testing';
import { Router, type Response } from 'express';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { EARLY_ANSWER_DRAIN_BYTES } from './early-answers';
import { createHttpApp, finishHttpApp } from './http-app';
import { startService, type RunningService } from './run-service';

const MiB = 1024 * 1024;
const LIMIT = MiB;
const BODY = Buffer.alloc(9 * MiB, 'a');

const PING = 'GET /api/v1/ping HTTP/1.1\r\nHost: x\r\n\r\n';
const withBody = (path: string, framing: 'content-length' | 'chunked') =>
  requestWithBody(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n`,
    BODY,
    framing,
  );

async function freshConnectionAnswers(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/ping`, { signal: AbortSignal.timeout(1000) });
  return res.status;
}

describe('a keep-alive connection after an early answer', () => {
  let service: RunningService;

  beforeAll(async () => {
    const logger = silentLogger();
    const lifecycle = createLifecycle();
    const app = createHttpApp({
      logger,
      metrics: createMetrics('early-answer-test'),
      probes: {
        service: 'early-answer-test',
        version: '1.0.0',
        lifecycle,
        pingDatabase: async () => undefined,
      },
    });
    const router = Router();
    router.get('/api/v1/ping', (_req, res) => {
      res.json({ pong: true });
    });
    const refuse = (res: Response) =>
      res.status(413).json({ error: 'request body exceeds 1 MiB', status: 413, code: 'payload_too_large' });
    // Reads the body while it fits the limit, then answers 413 and stops reading (like a streaming parser).
    router.post('/api/v1/read-then-refuse', async (req, res) => {
      let size = 0;
      for await (const chunk of req.iterator({ destroyOnReturn: false })) {
        size += (chunk as Buffer).length;
        if (size > LIMIT) return void refuse(res);
      }
    });
    // Pipes the body to an upstream that answers 413 part-way, and relays its answer (as the gateway does).
    router.post('/api/v1/pipe-then-refuse', async (req, res) => {
      let size = 0;
      const upstream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(size > LIMIT ? new Error('upstream answered') : undefined);
        },
      });
      // pipe(), not pipeline(): like http-proxy, it leaves the request open when the upstream fails.
      await new Promise(
        (resolve) => upstream.once('error', resolve).once('finish', resolve) && req.pipe(upstream),
      );
      refuse(res);
    });
    // Answers before reading a byte, in the request's own tick (as the gateway's declared-length check does).
    router.post('/api/v1/refuse-at-once', (_req, res) => {
      refuse(res);
    });
    // The same through the error middleware.
    router.post('/api/v1/read-then-throw', async (req) => {
      let size = 0;
      for await (const chunk of req.iterator({ destroyOnReturn: false })) {
        size += (chunk as Buffer).length;
        if (size > LIMIT) throw errors.payloadTooLarge('request body exceeds 1 MiB');
      }
    });
    app.use(router);
    finishHttpApp(app, logger);
    service = await startService({
      name: 'early-answer-test',
      app,
      logger,
      lifecycle,
      port: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
      startup: async () => undefined,
      shutdown: async () => undefined,
    });
    await service.started;
  });
  afterAll(() => service.stop());

  it.each([
    ['read-then-refuse', 'content-length'],
    ['read-then-refuse', 'chunked'],
    ['pipe-then-refuse', 'content-length'],
    ['pipe-then-refuse', 'chunked'],
    ['read-then-throw', 'content-length'],
    ['read-then-throw', 'chunked'],
  ] as const)(
    'answers the next request on the connection at once after a %s with a %s body',
    async (route, framing) => {
      const exchange = await keepAliveExchange(service.port, withBody(`/api/v1/${route}`, framing), PING);
      expect(exchange.statuses).toEqual([413, 200]);
      expect(exchange.nextAnsweredAfterMs).toBeLessThan(1000);
    },
  );

  /** Within what the server drains, and more than the loopback's socket buffers take at once. */
  const LARGE_BODY = Buffer.alloc(EARLY_ANSWER_DRAIN_BYTES - MiB, 'a');
  /**
   * A client that asks to close the connection after its request (`agent: false`) and sends its body at once:
   * what it read, and whether its connection then failed (a reset while it was still sending).
   */
  const closingClient = (route: string) =>
    new Promise<{ status: number; error: string | null }>((resolve) => {
      let status = 0;
      let error: string | null = null;
      const req = httpRequest(
        { host: '127.0.0.1', port: service.port, path: `/api/v1/${route}`, method: 'POST', agent: false, headers: { 'content-length': String(LARGE_BODY.length) } },
        (res) => {
          status = res.statusCode ?? 0;
          res.resume();
        },
      );
      req.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? 'error'));
      req.on('close', () => resolve({ status, error }));
      req.end(LARGE_BODY);
    });

  it.each(['read-then-refuse', 'pipe-then-refuse', 'refuse-at-once'])(
    'gives a client that asked to close the connection its early answer from %s, and reads its body before closing (no reset)',
    async (route) => {
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => closingClient(route)));
      expect(outcomes).toEqual(Array.from({ length: 8 }, () => ({ status: 413, error: null })));
    },
  );

  it('closes the connection at once after answering a body that announces more than it drains', async () => {
    const head = `POST /api/v1/read-then-throw HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${EARLY_ANSWER_DRAIN_BYTES + 1}\r\n\r\n`;
    const exchange = await keepAliveExchange(service.port, Buffer.concat([Buffer.from(head), BODY]), PING);
    expect(exchange.statuses).toEqual([413]);
    expect(exchange.closedAfterMs).toBeLessThan(1000);
    expect(await freshConnectionAnswers(service.port)).toBe(200);
  });

  it("answers the next request at once after an answer given in the request's own tick, before any body was read", async () => {
    const exchange = await keepAliveExchange(
      service.port,
      withBody('/api/v1/refuse-at-once', 'content-length'),
      PING,
    );
    expect(exchange.statuses).toEqual([413, 200]);
    expect(exchange.nextAnsweredAfterMs).toBeLessThan(1000);
  });

  it("survives an answer given in the request's own tick to a body announcing more than it drains: closed, not crashed", async () => {
    const head = `POST /api/v1/refuse-at-once HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${EARLY_ANSWER_DRAIN_BYTES + 1}\r\n\r\n`;
    const exchange = await keepAliveExchange(service.port, Buffer.concat([Buffer.from(head), BODY]), PING);
    expect(exchange.statuses).toEqual([413]);
    expect(exchange.closedAfterMs).toBeLessThan(1000);
    expect(await freshConnectionAnswers(service.port)).toBe(200);
  });
});

describe('a body that runs out of time after its request was answered', () => {
  let service: RunningService;
  const REQUEST_TIMEOUT_MS = 600;

  beforeAll(async () => {
    const logger = silentLogger();
    const lifecycle = createLifecycle();
    const app = createHttpApp({
      logger,
      metrics: createMetrics('early-answer-timeout-test'),
      probes: {
        service: 'early-answer-timeout-test',
        version: '1.0.0',
        lifecycle,
        pingDatabase: async () => undefined,
      },
    });
    const router = Router();
    router.post('/api/v1/refuse-at-once', (_req, res) => {
      res.status(413).json({ error: 'request body exceeds 1 MiB', status: 413, code: 'payload_too_large' });
    });
    app.use(router);
    finishHttpApp(app, logger);
    service = await startService({
      name: 'early-answer-timeout-test',
      app,
      logger,
      lifecycle,
      port: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: 1000,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      startup: async () => undefined,
      shutdown: async () => undefined,
    });
    await service.started;
  });
  afterAll(() => service.stop());

  it('closes the connection instead of answering the request a second time (408 after the 413)', async () => {
    const socket = connect(service.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(
      'POST /api/v1/refuse-at-once HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    // A body trickling in far slower than the drain's byte bound, for longer than the request timeout.
    const trickle = setInterval(() => socket.writable && socket.write('1\r\na\r\n'), 50);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS * 4));
    await Promise.race([closed, deadline]);
    clearInterval(trickle);
    socket.destroy();
    const statusLines = received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    expect(statusLines).toEqual(['HTTP/1.1 413']);
    expect(socket.destroyed).toBe(true);
  });
});

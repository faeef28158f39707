import { createMetrics } from '@mt/metrics';
import { createLifecycle } from '@mt/probes';
import { sendAndStall, silentLogger } from '@mt/testing';
import express, { Router } from 'express';
import { connect } from 'node:net';
import { createHttpApp, finishHttpApp } from './http-app';
import { startService, type RunningService } from './run-service';

/**
 * Slow clients against a real service server: whatever part of the request never arrives, the answer is a
 * 408 in the contract's payload within the request timeout, and nothing else is cut.
 */
const REQUEST_TIMEOUT_MS = 1500;
/** Node checks deadlines periodically (every 150 ms here); a loaded machine adds some more. */
const SLACK_MS = 1500;

const expect408 = (answer: Awaited<ReturnType<typeof sendAndStall>>, requestId?: string) => {
  expect(answer.status).toBe(408);
  expect(answer.body).toEqual({
    error: 'request not received in time (headers and body are due within 1.5 s)',
    status: 408,
    code: 'request_timeout',
    timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    request_id: requestId ?? expect.any(String),
  });
  expect(answer.headers.get('x-request-id')).toBe((answer.body as { request_id: string }).request_id);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.headers.get('connection')).toBe('close');
  expect(answer.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
  expect(answer.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + SLACK_MS);
};

describe('slow clients (request timeout)', () => {
  let service: RunningService;

  beforeAll(async () => {
    const logger = silentLogger();
    const lifecycle = createLifecycle();
    const app = createHttpApp({
      logger,
      metrics: createMetrics('slow-client-test'),
      probes: {
        service: 'slow-client-test',
        version: '1.0.0',
        lifecycle,
        pingDatabase: async () => undefined,
      },
    });
    const router = Router();
    router.post('/api/v1/things', express.json(), (req, res) => {
      res.status(201).json({ received: req.body });
    });
    // Work that outlasts the request timeout after the whole request has arrived.
    router.get('/api/v1/slow', (_req, res) => {
      setTimeout(() => res.json({ done: true }), REQUEST_TIMEOUT_MS + 1000);
    });
    app.use(router);
    finishHttpApp(app, logger);
    service = await startService({
      name: 'slow-client-test',
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

  it('answers never-ending headers with 408 within the request timeout', async () => {
    const answer = await sendAndStall(service.port, 'GET /api/v1/things HTTP/1.1\r\nHost: x\r\n', {
      trickle: { bytes: 'X-Slow: a\r\n', everyMs: 100 },
    });
    expect408(answer);
  });

  it('answers a Content-Length whose body never comes with 408 naming the request id', async () => {
    const answer = await sendAndStall(
      service.port,
      'POST /api/v1/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: stalled-body-1\r\n\r\n{"a":',
    );
    expect408(answer, 'stalled-body-1');
  });

  it('answers a chunked body that never ends with 408, however steadily it trickles', async () => {
    const answer = await sendAndStall(
      service.port,
      'POST /api/v1/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{"\r\n',
      { trickle: { bytes: '1\r\na\r\n', everyMs: 100 } },
    );
    expect408(answer);
  });

  it('serves a slow but complete request, and work that outlasts the timeout once the request is in', async () => {
    const body = '{"title":"slow but complete"}';
    const head = `POST /api/v1/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    // The body arrives three bytes at a time, over about half the request timeout.
    const socket = connect(service.port, '127.0.0.1');
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.write(head);
      let sent = 0;
      const pump = setInterval(() => {
        socket.write(body.slice(sent, sent + 3));
        sent += 3;
        if (sent >= body.length) clearInterval(pump);
      }, REQUEST_TIMEOUT_MS / 20);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer).toContain('"slow but complete"');

    const slow = await sendAndStall(
      service.port,
      'GET /api/v1/slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(slow.status).toBe(200);
    expect(slow.elapsedMs).toBeGreaterThan(REQUEST_TIMEOUT_MS);
  });

  it('keeps an idle keep-alive connection longer than the request timeout, without a stray 408', async () => {
    const socket = connect(service.port, '127.0.0.1');
    const received: string[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk.toString('utf8')));
    const request = 'GET /livez HTTP/1.1\r\nHost: x\r\n\r\n';
    socket.write(request);
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS * 2));
    expect(received.join('')).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.join('')).not.toContain(' 408 ');
    socket.write(request);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.join('').match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    socket.destroy();
  });
});

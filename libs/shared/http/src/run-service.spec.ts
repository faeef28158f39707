import { createMetrics } from '@mt/metrics';
import { createLifecycle, type Lifecycle } from '@mt/probes';
import { silentLogger } from '@mt/testing';
import express, { Router, type Express } from 'express';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { createHttpApp, finishHttpApp } from './http-app';
import { startService, type RunningService } from './run-service';

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function buildApp(lifecycle: Lifecycle, events: string[]): Express {
  const logger = silentLogger();
  const app = createHttpApp({
    logger,
    metrics: createMetrics('run-service-test'),
    probes: { service: 'test', version: '1', lifecycle, pingDatabase: async () => undefined },
  });
  const router = Router();
  router.post('/echo', express.json(), (req, res) => {
    events.push('request answered');
    res.json({ echoed: req.body });
  });
  router.get('/never', () => undefined);
  app.use(router);
  return finishHttpApp(app, logger);
}

function send(port: number, method: string, path: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method, path, agent: false, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Headers and half a body now; the rest when `finish()` is called. */
function holdRequest(port: number, body: string) {
  let answered = false;
  let req!: ReturnType<typeof request>;
  const response = new Promise<Answer>((resolve, reject) => {
    req = request(
      { port, host: '127.0.0.1', method: 'POST', path: '/echo', agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } },
      (res) => {
        answered = true;
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(body.slice(0, 5));
  });
  return { response, answered: () => answered, finish: () => req.end(body.slice(5)) };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startService', () => {
  let running: RunningService | undefined;
  let lifecycle: Lifecycle;
  let events: string[];

  const start = async (options: { startup?: (signal: AbortSignal) => Promise<void>; shutdownTimeoutMs?: number } = {}) => {
    lifecycle = createLifecycle();
    events = [];
    running = await startService({
      name: 'test',
      app: buildApp(lifecycle, events),
      logger: silentLogger(),
      lifecycle,
      port: 0,
      host: '127.0.0.1',
      shutdownTimeoutMs: options.shutdownTimeoutMs ?? 4000,
      startup: options.startup ?? (async () => undefined),
      beforeDrain: async () => void events.push('beforeDrain'),
      shutdown: async () => void events.push('shutdown'),
    });
    return running;
  };

  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  it('listens before start-up, so /livez and /startupz answer while it runs', async () => {
    let finishStartup!: () => void;
    const service = await start({ startup: () => new Promise<void>((resolve) => (finishStartup = resolve)) });

    expect(await send(service.port, 'GET', '/livez')).toMatchObject({ status: 200, body: '{"status":"alive"}' });
    expect(await send(service.port, 'GET', '/startupz')).toMatchObject({ status: 503, body: '{"status":"starting"}' });
    expect(await send(service.port, 'GET', '/readyz')).toMatchObject({ status: 503, body: '{"status":"unhealthy","error":"starting"}' });
    finishStartup();
    await service.started;
    expect(lifecycle.started).toBe(true);
    expect(await send(service.port, 'GET', '/startupz')).toMatchObject({ status: 200, body: '{"status":"started"}' });
  });

  it('on stop, turns readiness to 503 but keeps serving until the in-flight request has its normal answer, then shuts down', async () => {
    const service = await start();
    await service.started;
    const held = holdRequest(service.port, '{"title":"in flight"}');
    await delay(100);
    expect(held.answered()).toBe(false);

    const stopped = service.stop('test');
    const readiness = await send(service.port, 'GET', '/readyz');
    expect(readiness).toMatchObject({ status: 503, body: '{"status":"unhealthy","error":"shutting down"}' });
    expect(readiness.headers['connection']).toBe('close');
    expect(events).toEqual(['beforeDrain']);

    held.finish();
    expect(await held.response).toMatchObject({ status: 200, body: '{"echoed":{"title":"in flight"}}' });
    await stopped;
    expect(events).toEqual(['beforeDrain', 'request answered', 'shutdown']);
    await expect(send(service.port, 'GET', '/livez')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('stops at once when nothing is in flight, closing idle keep-alive connections', async () => {
    const service = await start();
    await service.started;
    const socket = connect(service.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));

    const startedAt = Date.now();
    await service.stop();
    await closed;
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(events).toEqual(['beforeDrain', 'shutdown']);
  });

  it('closes requests still running at the shutdown deadline', async () => {
    const service = await start({ shutdownTimeoutMs: 600 });
    await service.started;
    const never = send(service.port, 'GET', '/never');
    never.catch(() => undefined);
    await delay(100);

    const startedAt = Date.now();
    await service.stop();
    expect(Date.now() - startedAt).toBeLessThan(1500);
    await expect(never).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(events).toEqual(['beforeDrain', 'shutdown']);
  });

  it('aborts a start-up that is still running when asked to stop', async () => {
    let aborted = false;
    const service = await start({
      startup: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => ((aborted = true), resolve()))),
    });
    await service.stop();
    expect(aborted).toBe(true);
    expect(lifecycle.started).toBe(false);
  });

  it('answers a request the HTTP parser rejects with the contract payload', async () => {
    const service = await start();
    const socket = connect(service.port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('GET /livez HTTP/1.1\r\nHost: x\r\nBroken Header\r\n\r\n');
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 400, code: 'validation_failed', error: 'malformed HTTP request' });
    expect(body['request_id']).toEqual(expect.any(String));
  });
});

import type { Logger } from '@mt/logging';
import type { Lifecycle } from '@mt/probes';
import type { Express } from 'express';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appPrototypes } from './app-prototypes';
import { clientErrorHandler } from './client-errors';
import { earlyAnswerDrain } from './early-answers';

export interface ServiceRuntime {
  name: string;
  app: Express;
  logger: Logger;
  lifecycle: Lifecycle;
  port: number;
  host: string;
  shutdownTimeoutMs: number;
  /** REQUEST_TIMEOUT_MS: headers and body must arrive within this time from a request's first byte (else 408). */
  requestTimeoutMs?: number;
  /** Connect stores, ensure indexes, register... Retries on its own; stops when `signal` aborts. */
  startup: (signal: AbortSignal) => Promise<void>;
  /** Deregister, stop consumers, close stores. Runs after in-flight requests have drained. */
  shutdown: () => Promise<void>;
  /**
   * Optional: runs right after SIGTERM, before draining (readiness is already 503), e.g. deregister from
   * the registry so the gateway stops routing here while in-flight requests finish. Errors are logged.
   */
  beforeDrain?: () => Promise<void>;
  /** The operator port (createMetricsApp): listens with the API port, closes after shutdown. */
  metricsServer?: { app: Express; port: number };
}

export interface RunningService {
  server: Server;
  port: number;
  /** The port the metrics app listens on (when there is one). */
  metricsPort?: number;
  /** Resolves when start-up has finished. */
  started: Promise<void>;
  stop: (reason?: string) => Promise<void>;
}

/**
 * Upstream keep-alive outlives the gateway's idle sockets (the gateway's agent closes first), so the
 * gateway never writes to a socket the service is closing.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The documented default of REQUEST_TIMEOUT_MS. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The HTTP server of a service. A request (its headers and its whole body) must arrive within
 * `requestTimeoutMs` of its first byte, else 408 (clientErrorHandler); an idle keep-alive connection is
 * not a request and waits up to the keep-alive timeout; a handler still working after the body arrived
 * is not limited by it. Node checks the deadline every `connectionsCheckingInterval` (30 s by default,
 * which let never-ending headers run for 77 s): every second here, or sooner for short timeouts. A request
 * answered before its body was read whole has the rest of it drained, within bounds (early-answers.ts).
 * `beforeApp` (startService's in-flight count) and the drain's watch wrap the app's handler: as listeners of
 * the server's 'request' event they cost every request (bench/README.md "Figures behind decisions in the code").
 */
export function createServiceServer(
  app: Express,
  requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  beforeApp?: RequestListener,
): Server {
  const watchEarlyAnswer = earlyAnswerDrain();
  const handle: RequestListener = (req, res) => {
    beforeApp?.(req, res);
    watchEarlyAnswer(req, res);
    app(req, res);
  };
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(requestTimeoutMs / 10))),
      ...appPrototypes(app),
    },
    handle,
  );
  server.on('clientError', clientErrorHandler(requestTimeoutMs));
  return server;
}

/** Listens first (so /livez and /startupz answer during start-up), then runs start-up. */
export async function startService(runtime: ServiceRuntime): Promise<RunningService> {
  const { app, logger, lifecycle } = runtime;
  const inFlight = trackInFlightRequests(lifecycle);
  const server = createServiceServer(app, runtime.requestTimeoutMs, inFlight.onRequest);

  const port = await listen(server, runtime.port, runtime.host, 'PORT');
  let metricsServer: Server | undefined;
  let metricsPort: number | undefined;
  if (runtime.metricsServer) {
    metricsServer = createServer(runtime.metricsServer.app);
    try {
      metricsPort = await listen(metricsServer, runtime.metricsServer.port, runtime.host, 'METRICS_PORT');
    } catch (error) {
      await new Promise((resolve) => server.close(resolve));
      throw error;
    }
  }
  logger.debug({ port, metrics_port: metricsPort }, `${runtime.name} listening`);

  const startupAbort = new AbortController();
  const started = runtime.startup(startupAbort.signal).then(() => {
    if (startupAbort.signal.aborted) return;
    lifecycle.started = true;
    logger.debug(`${runtime.name} started`);
  });

  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop requested') =>
    (stopping ??= (async () => {
      logger.info({ reason }, `${runtime.name} shutting down`);
      lifecycle.shuttingDown = true;
      startupAbort.abort();
      await runtime.beforeDrain?.().catch((error: Error) =>
        logger.warn({ err: { name: error.name, message: error.message } }, 'beforeDrain failed'),
      );
      await drain(server, inFlight, runtime.shutdownTimeoutMs, logger);
      await started.catch(() => undefined);
      await runtime.shutdown();
      const metrics = metricsServer;
      if (metrics) {
        metrics.closeAllConnections();
        await new Promise((resolve) => metrics.close(resolve));
      }
      logger.info(`${runtime.name} stopped`);
    })());

  return { server, port, metricsPort, started, stop };
}

/** Listens; a port in use is named by its variable, so the operator knows what to change. */
async function listen(server: Server, port: number, host: string, variable: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`${variable}: port ${port} on ${host} is already in use`) : error),
    );
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

interface InFlightRequests {
  readonly count: number;
  /** Resolves when no request is in flight (at once if none is). */
  idle: () => Promise<void>;
  /** Counts a request until its response is done: run before the app sees it. */
  onRequest: RequestListener;
}

/**
 * Counts requests until their response is done. While shutting down, every response says
 * `Connection: close`, so keep-alive clients (the gateway's agent) take their next request elsewhere.
 */
function trackInFlightRequests(lifecycle: Lifecycle): InFlightRequests {
  let count = 0;
  let waiters: Array<() => void> = [];
  // One listener for every response (no closure per request); `on`, not `once`: a response closes once.
  function requestDone(): void {
    count--;
    if (count === 0) {
      for (const wake of waiters) wake();
      waiters = [];
    }
  }
  return {
    get count() {
      return count;
    },
    idle: () => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    // Before the app: express may answer synchronously, after which headers can no longer be set.
    onRequest: (_req, res) => {
      count++;
      if (lifecycle.shuttingDown) res.setHeader('Connection', 'close');
      res.on('close', requestDone);
    },
  };
}

/** Resolves true when `promise` settles within `ms`, false otherwise; the timer never outlives it. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Graceful drain. Readiness is already 503. Phase 1: keep listening while requests are in flight (so a
 * readiness probe sees 503 rather than a refused connection, and late requests routed here are still
 * served), for at most half the budget. Phase 2: stop accepting, close idle keep-alive sockets, let the
 * remaining requests finish. At the deadline, close whatever is left.
 */
async function drain(server: Server, inFlight: InFlightRequests, timeoutMs: number, logger: Logger): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  if (inFlight.count > 0) {
    logger.info({ in_flight: inFlight.count }, 'draining in-flight requests');
    await settlesWithin(inFlight.idle(), Math.min(timeoutMs / 2, 5000));
  }
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  try {
    if (!(await settlesWithin(closed, Math.max(0, deadline - Date.now())))) {
      logger.warn({ in_flight: inFlight.count }, 'in-flight requests did not finish in time; closing their connections');
      server.closeAllConnections();
      await closed;
    }
  } finally {
    clearInterval(sweeper);
  }
}

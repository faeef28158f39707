import type { Logger } from '@mt/logging';
import type { Lifecycle } from '@mt/probes';
import type { Express } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServiceRuntime {
  name: string;
  app: Express;
  logger: Logger;
  lifecycle: Lifecycle;
  port: number;
  host: string;
  shutdownTimeoutMs: number;
  /** Connect stores, ensure indexes, register... Retries on its own; stops when `signal` aborts. */
  startup: (signal: AbortSignal) => Promise<void>;
  /** Deregister, stop consumers, close stores. Runs after in-flight requests have drained. */
  shutdown: () => Promise<void>;
}

export interface RunningService {
  server: Server;
  port: number;
  /** Resolves when start-up has finished. */
  started: Promise<void>;
  stop: (reason?: string) => Promise<void>;
}

/**
 * Upstream keep-alive outlives the gateway's idle sockets (the gateway's agent closes first), so the
 * gateway never writes to a socket the service is closing.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Listens first (so /livez and /startupz answer during start-up), then runs start-up. */
export async function startService(runtime: ServiceRuntime): Promise<RunningService> {
  const { app, logger, lifecycle } = runtime;
  const server = createServer(app);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(runtime.port, runtime.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port }, `${runtime.name} listening`);

  const startupAbort = new AbortController();
  const started = runtime.startup(startupAbort.signal).then(() => {
    if (startupAbort.signal.aborted) return;
    lifecycle.started = true;
    logger.info(`${runtime.name} started`);
  });

  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop requested') =>
    (stopping ??= (async () => {
      logger.info({ reason }, `${runtime.name} shutting down`);
      lifecycle.shuttingDown = true;
      startupAbort.abort();
      await drain(server, runtime.shutdownTimeoutMs, logger);
      await started.catch(() => undefined);
      await runtime.shutdown();
      logger.info(`${runtime.name} stopped`);
    })());

  return { server, port, started, stop };
}

/** Stops accepting, lets in-flight requests finish, closes idle keep-alive sockets, then forces. */
async function drain(server: Server, timeoutMs: number, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  if ((await Promise.race([closed, timedOut])) === 'timeout') {
    logger.warn('in-flight requests did not finish in time; closing their connections');
    server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
  clearInterval(sweeper);
}

/** For main.ts: start, stop on SIGTERM/SIGINT, exit 0 when stopped (1 if start-up threw). */
export async function runServiceProcess(runtime: ServiceRuntime): Promise<void> {
  const { logger } = runtime;
  process.on('unhandledRejection', (reason) =>
    logger.error({ reason: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection'),
  );
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: { name: error.name, message: error.message } }, 'uncaught exception; exiting');
    process.exit(1);
  });
  const running = await startService(runtime);
  running.started.catch((error: Error) => {
    logger.fatal({ err: { name: error.name, message: error.message } }, 'start-up failed');
    process.exit(1);
  });
  const onSignal = (signal: NodeJS.Signals) => {
    running.stop(signal).then(
      () => process.exit(0),
      (error: Error) => {
        logger.error({ err: { message: error.message } }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/**
 * CPU per access-log line, side by side in one process (issue 13, "Libraries judged" in bench/README.md): the
 * gateway's hand-written request-context middleware against pino-http configured to write the same fields
 * (request id resolved and echoed, AsyncLocalStorage context, level by path and status), both through the
 * services' pino logger to /dev/null. A baseline without logging measures the request/response objects alone;
 * the last two rows write the line alone, with the services' logger settings and with bare pino. A second
 * table turns one such JSON line into the readable form `npm start` prints (libs/stack log-format.ts) and into
 * pino-pretty's, colours off.
 *   node tools/build/build-app.mjs bench src/micro/access-log.ts && node dist/bench/access-log.js
 */
import type { RequestHandler } from 'express';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import { prettyFactory } from 'pino-pretty';
import { formatLogLine, parseLogLine } from '@mt/stack';
import {
  createLogger,
  REQUEST_ID_HEADER,
  requestContext,
  requestContextMiddleware,
  requestLogLevel,
  resolveRequestId,
  type Logger,
} from '@mt/logging';
import { compareInterleaved, printResults } from './interleaved';

const socket = new Socket();
const noop = () => undefined;
const LINE = {
  request_id: 'b2c7d0a4-3f9e-4c1a-9d2e-5f6a7b8c9d0e',
  method: 'GET',
  path: '/api/v1/movies',
  status: 200,
  duration_ms: 1.3,
};

/** One request through `middleware`, answered 200: what Express hands the middleware, minus the network. */
function oneRequest(middleware: RequestHandler | undefined) {
  const req = new IncomingMessage(socket) as IncomingMessage & { originalUrl: string; path: string };
  req.method = 'GET';
  req.url = req.originalUrl = '/api/v1/movies?limit=20';
  req.path = '/api/v1/movies';
  const res = new ServerResponse(req) as unknown as ServerResponse & { locals: Record<string, unknown> };
  res.locals = {};
  middleware?.(req as never, res as never, noop);
  res.statusCode = 200;
  res.emit('finish');
}

function pinoHttpMiddleware(logger: Logger): RequestHandler {
  const logging = pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = resolveRequestId(req.headers[REQUEST_ID_HEADER]);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (req, res) =>
      requestLogLevel((req as unknown as { path: string }).path, res.statusCode, { accessLog: true }),
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    customSuccessMessage: () => 'request',
    quietReqLogger: true,
    wrapSerializers: false,
    serializers: {
      req: (req: { method: string; originalUrl: string }) => ({
        method: req.method,
        path: req.originalUrl.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
  return (req, res, next) => logging(req, res, () => requestContext.run({ requestId: String(req.id) }, next));
}

function countingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger({ service: 'bench', destination }), lines };
}

async function main() {
  // Both write one line per request: shown once, so the reader sees that they log the same thing.
  for (const [name, build] of [
    ['hand-written', (l: Logger) => requestContextMiddleware(l, { accessLog: true })],
    ['pino-http', pinoHttpMiddleware],
  ] as const) {
    const { logger, lines } = countingLogger();
    oneRequest(build(logger));
    await new Promise((resolve) => setImmediate(resolve));
    console.log(`${name}: ${lines.length} line(s): ${lines.join(' ')}`);
    if (lines.length !== 1) throw new Error(`${name} must write exactly one line per request`);
  }

  const devNull = () =>
    createLogger({ service: 'bench', destination: pino.destination({ dest: '/dev/null', sync: false }) });
  const handWritten = requestContextMiddleware(devNull(), { accessLog: true });
  const withPinoHttp = pinoHttpMiddleware(devNull());
  const safeLogger = devNull();
  const barePino = pino(
    {
      base: { service: 'bench' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ dest: '/dev/null', sync: false }),
  );
  const rounds = Number(process.env['ROUNDS'] ?? 15);
  const opsPerRound = Number(process.env['OPS'] ?? 5000);
  const results = await compareInterleaved(
    [
      { name: 'no logging (request/response objects only)', op: () => oneRequest(undefined) },
      { name: 'requestContextMiddleware (today)', op: () => oneRequest(handWritten) },
      { name: 'pino-http, same fields', op: () => oneRequest(withPinoHttp) },
      {
        name: 'the line alone: createLogger (redaction, safe errors, request-id mixin)',
        op: () => safeLogger.info(LINE, 'request'),
      },
      {
        name: 'the line alone: bare pino, same base/time/level format',
        op: () => barePino.info(LINE, 'request'),
      },
    ],
    { rounds, opsPerRound },
  );
  printResults(`Access-log line to /dev/null, ${rounds} interleaved rounds × ${opsPerRound}`, results);
  const baseline = results[0]?.cpuMicrosPerOp ?? 0;
  for (const r of results.slice(1, 3))
    console.log(`${r.name}: ${(r.cpuMicrosPerOp - baseline).toFixed(2)} CPU µs per line net of the baseline`);

  const jsonLine = JSON.stringify({
    level: 'info',
    time: new Date().toISOString(),
    service: 'gateway',
    ...LINE,
    msg: 'request',
  });
  const pretty = prettyFactory({ colorize: false, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  console.log(
    `\nlibs/stack: ${formatLogLine(parseLogLine('gateway', 'stdout', jsonLine), { colour: false })}`,
  );
  console.log(`pino-pretty: ${pretty(jsonLine).trimEnd()}`);
  printResults(
    `Readable form of one JSON request line, ${rounds} interleaved rounds × ${opsPerRound}`,
    await compareInterleaved(
      [
        {
          name: 'parseLogLine + formatLogLine (libs/stack, today)',
          op: () => formatLogLine(parseLogLine('gateway', 'stdout', jsonLine), { colour: false }),
        },
        { name: 'pino-pretty prettyFactory', op: () => pretty(jsonLine) },
      ],
      { rounds, opsPerRound },
    ),
  );
}

void main();

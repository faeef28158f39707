import pino, { type Logger } from 'pino';
import { currentRequestId } from './request-context';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level?: string;
  /** A writable destination (tests capture lines); stdout when omitted. */
  destination?: pino.DestinationStream;
}

/** What a log line shows of an error: never its stack, never arbitrary attached fields. */
export function safeError(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const error = value as { name?: unknown; message?: unknown; code?: unknown; constructor?: { name?: unknown } };
  const text = (field: unknown) => (typeof field === 'string' || typeof field === 'number' ? field : undefined);
  return {
    type: value instanceof Error ? text(error.constructor?.name) : undefined,
    name: text(error.name),
    // A driver message may quote a connection URL: its credentials are cut out.
    message: typeof error.message === 'string' ? error.message.replace(/\/\/[^/@\s]+@/g, '//[redacted]@') : undefined,
    code: text(error.code),
  };
}

/**
 * The safety and correlation settings of every logger (also the test loggers of @mt/testing): the request
 * id of the current request on every line, errors without stacks, credentials redacted.
 */
export const safeLoggerOptions = (): pino.LoggerOptions => ({
  mixin: () => {
    const requestId = currentRequestId();
    return requestId ? { request_id: requestId } : {};
  },
  // Errors are logged as type, name, message and code only: a stack trace (or a driver error's attached
  // command, which may carry user data) never reaches the logs, whoever logs `{ err }`.
  serializers: { err: safeError, error: safeError },
  // Belt and braces: never write credentials even if an object carrying them is logged.
  redact: {
    paths: ['authorization', 'password', 'token', '*.authorization', '*.password', '*.token', 'headers.authorization'],
    censor: '[redacted]',
  },
});

/** An asynchronous writer of log lines to stdout; pino flushes it synchronously when the process exits. */
export const stdoutLogDestination = (): pino.DestinationStream => pino.destination({ sync: false });

/** JSON lines on stdout, each stamped with the service and, inside a request, its request id. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      ...safeLoggerOptions(),
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? stdoutLogDestination(),
  );
}

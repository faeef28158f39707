import pino, { type Logger } from 'pino';
import { currentRequestId } from './request-context';

export type { Logger } from 'pino';

export interface LoggerOptions {
  service: string;
  level?: string;
  /** A writable destination (tests capture lines); stdout when omitted. */
  destination?: pino.DestinationStream;
}

/** JSON lines on stdout, each stamped with the service and, inside a request, its request id. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { request_id: requestId } : {};
      },
      // Belt and braces: never write credentials even if an object carrying them is logged.
      redact: {
        paths: ['authorization', 'password', 'token', '*.authorization', '*.password', '*.token', 'headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}

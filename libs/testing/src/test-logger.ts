import { safeLoggerOptions } from '@mt/logging';
import pino, { type Logger } from 'pino';
import { Writable } from 'node:stream';

/**
 * A logger whose lines are kept in memory, so tests can assert on (or scan) what was logged. It has the
 * production logger's request id, error and redaction settings (numeric pino levels: 30 info, 40 warn...).
 */
export function captureLogger(service = 'test'): { logger: Logger; lines: () => string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: pino({ ...safeLoggerOptions(), level: 'debug', base: { service } }, sink), lines: () => [...lines] };
}

export const silentLogger = (): Logger => pino({ level: 'silent' });

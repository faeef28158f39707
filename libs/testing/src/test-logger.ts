import pino, { type Logger } from 'pino';
import { Writable } from 'node:stream';

/** A logger whose lines are kept in memory, so tests can assert on (or scan) what was logged. */
export function captureLogger(service = 'test'): { logger: Logger; lines: () => string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: pino({ level: 'debug', base: { service } }, sink), lines: () => [...lines] };
}

export const silentLogger = (): Logger => pino({ level: 'silent' });

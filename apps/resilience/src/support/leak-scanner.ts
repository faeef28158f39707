import { createHash } from 'node:crypto';
import type { LogLine } from '@mt/stack';

/** What must never reach a client or a log line. */
const STACK_PATTERNS: Array<[string, RegExp]> = [
  ['stack frame', / {4}at /],
  ['stack frame', /\bat (?:async )?[^\s()]*\s?\(?(?:\/|node:|file:)[^)\s]*:\d+:\d+/],
  ['source location', /\.(?:js|ts|mjs|cjs):\d+:\d+/],
  ['file path in an error', /Error:[^"\n]{0,200}(?:node_modules|\/work\/|dist\/apps|\/src\/)/],
  ['password hash', /\$argon2(?:id|i|d)\$/],
];

/** Driver and socket messages: fine in a log line, never in a response. */
const RESPONSE_ONLY_PATTERNS: Array<[string, RegExp]> = [
  [
    'driver message',
    /Mongo\w*Error|MongooseError|E11000|ECONNREFUSED|ECONNRESET|EPIPE|ioredis|MaxRetriesPerRequest|Connection is closed|buffering timed out/i,
  ],
  ['PAT secret', /mtp_[0-9A-Za-z]{38}/],
  ['SHA-256 hex', /(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])/],
];

export interface Leak {
  where: string;
  kind: string;
  excerpt: string;
}

const excerptAround = (text: string, index: number) =>
  text.slice(Math.max(0, index - 60), index + 100).replace(/\s+/g, ' ');

/**
 * Collects every leak seen in responses (scanned as they arrive) and log lines (scanned at the end, when
 * every secret of the run is known). Secrets are the PATs and passwords the tests created, their SHA-256
 * hashes, the JWTs issued to the tests and the JWT private key: a response may carry a token only where the
 * contract hands it out (login, password change, token creation), a log line never.
 */
export class LeakScanner {
  private readonly secrets = new Map<string, string>();
  private readonly scannedLines = new WeakSet<LogLine>();
  readonly leaks: Leak[] = [];
  responsesScanned = 0;
  logLinesScanned = 0;

  /** A PAT: the secret and its SHA-256 hex (what the auth service stores). */
  addPat(token: string): void {
    this.secrets.set(token, 'PAT secret');
    this.secrets.set(createHash('sha256').update(token).digest('hex'), 'PAT hash');
  }

  addSecret(value: string, kind: string): void {
    if (value.length >= 8) this.secrets.set(value, kind);
  }

  /** `allowTokens`: the response that hands out a token (login, password change, POST /tokens). */
  scanResponse(where: string, text: string, options: { allowTokens?: boolean } = {}): void {
    this.responsesScanned++;
    for (const [kind, pattern] of [...STACK_PATTERNS, ...RESPONSE_ONLY_PATTERNS]) {
      if (options.allowTokens && kind === 'PAT secret') continue;
      const match = pattern.exec(text);
      if (match) this.leaks.push({ where, kind, excerpt: excerptAround(text, match.index) });
    }
    if (options.allowTokens) return;
    for (const [secret, kind] of this.secrets) {
      const index = text.indexOf(secret);
      if (index >= 0)
        this.leaks.push({ where, kind, excerpt: excerptAround(text, index).replace(secret, '<secret>') });
    }
  }

  scanLogs(lines: readonly LogLine[]): void {
    for (const line of lines) {
      if (this.scannedLines.has(line)) continue; // scanned before the shutdown, and again after it
      this.scannedLines.add(line);
      this.logLinesScanned++;
      const where = `log of ${line.process}`;
      for (const [kind, pattern] of STACK_PATTERNS) {
        const match = pattern.exec(line.text);
        if (match) this.leaks.push({ where, kind, excerpt: excerptAround(line.text, match.index) });
      }
      for (const [secret, kind] of this.secrets) {
        const index = line.text.indexOf(secret);
        if (index >= 0)
          this.leaks.push({
            where,
            kind,
            excerpt: excerptAround(line.text, index).replace(secret, '<secret>'),
          });
      }
    }
  }

  /** Figures for the report; secrets never appear in them. */
  summary() {
    return {
      responses_scanned: this.responsesScanned,
      log_lines_scanned: this.logLinesScanned,
      secrets_tracked: this.secrets.size,
      leaks: this.leaks.length,
    };
  }
}

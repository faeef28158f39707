/** One line a child process wrote, with its pino JSON parsed when it is one. */
export interface LogLine {
  /** The process that wrote it (`gateway`, `catalog-movies`, ...), or `stack` for the launcher itself. */
  process: string;
  stream: 'stdout' | 'stderr';
  text: string;
  json?: Record<string, unknown>;
}

export type LogSink = (line: LogLine) => void;

export function parseLogLine(processName: string, stream: LogLine['stream'], text: string): LogLine {
  if (text.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(text);
      if (json && typeof json === 'object' && !Array.isArray(json)) {
        return { process: processName, stream, text, json: json as Record<string, unknown> };
      }
    } catch {
      // not JSON after all: shown as it is
    }
  }
  return { process: processName, stream, text };
}

const ANSI = { reset: '\x1b[0m', dim: '\x1b[2m', red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', blue: '\x1b[34m', magenta: '\x1b[35m', cyan: '\x1b[36m' };
const PROCESS_COLOURS = [ANSI.cyan, ANSI.magenta, ANSI.blue, ANSI.yellow, ANSI.green];
const LEVEL_COLOURS: Record<string, string> = {
  FATAL: ANSI.red,
  ERROR: ANSI.red,
  WARN: ANSI.yellow,
  INFO: ANSI.green,
  DEBUG: ANSI.dim,
  TRACE: ANSI.dim,
};
/** pino's numeric levels, for lines of loggers configured without level labels. */
const NUMERIC_LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the short form already shows. */
const HIDDEN_FIELDS = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname', 'v']);

const levelOf = (json: Record<string, unknown>): string => {
  const level = json['level'];
  if (typeof level === 'number') return NUMERIC_LEVELS[level] ?? String(level);
  return typeof level === 'string' ? level.toUpperCase() : 'INFO';
};

const showValue = (value: unknown): string => {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
};

export interface FormatOptions {
  colour: boolean;
  /** Width the process name is padded to, so messages line up. */
  nameWidth?: number;
}

/**
 * `[gateway] INFO request GET /api/v1/movies 200 3.1ms request_id=…` for request lines; other pino lines show their
 * message and then their own fields as key=value; anything else is shown as written. Hand-written rather than
 * pino-pretty: one line per request instead of one per field, at a fifth of its CPU (bench/README.md
 * "Libraries judged").
 */
export function formatLogLine(line: LogLine, options: FormatOptions): string {
  const colourIndex = [...line.process].reduce((sum, char) => sum + char.charCodeAt(0), 0) % PROCESS_COLOURS.length;
  const paint = (colour: string | undefined, text: string) => (options.colour && colour ? `${colour}${text}${ANSI.reset}` : text);
  const prefix = paint(PROCESS_COLOURS[colourIndex], `[${line.process}]`.padEnd((options.nameWidth ?? 0) + 2));
  const json = line.json;
  if (!json) return `${prefix} ${line.stream === 'stderr' ? paint(ANSI.red, line.text) : line.text}`;

  const level = levelOf(json);
  const message = typeof json['msg'] === 'string' ? json['msg'] : '';
  const fields = Object.entries(json).filter(([key]) => !HIDDEN_FIELDS.has(key));
  let body: string;
  if (message === 'request' && typeof json['method'] === 'string' && json['status'] !== undefined) {
    const shown = new Set(['method', 'path', 'status', 'duration_ms', 'request_id']);
    const rest = fields.filter(([key]) => !shown.has(key)).map(([key, value]) => `${key}=${showValue(value)}`);
    // The request id is what a user quotes from an error payload: every request line shows it.
    const id = json['request_id'] === undefined ? [] : [`request_id=${showValue(json['request_id'])}`];
    body = [`request ${json['method']} ${String(json['path'] ?? '')} ${String(json['status'])} ${String(json['duration_ms'] ?? '?')}ms`, ...id, ...rest].join(' ');
  } else {
    body = [message, ...fields.map(([key, value]) => `${key}=${showValue(value)}`)].filter(Boolean).join(' ');
  }
  return `${prefix} ${paint(LEVEL_COLOURS[level], level)} ${body}`;
}

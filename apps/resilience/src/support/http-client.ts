import type { LeakScanner } from './leak-scanner';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  /** The body as sent (for leak scans and messages). */
  text: string;
  /** Parsed JSON, or the text when it was not JSON. */
  body: T;
  ms: number;
}

export interface RequestOptions {
  /** The bearer credential (sent as `Authorization: Bearer <token>`). */
  token?: string;
  /** Serialised as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** Sent as it is (malformed input), with `contentType` when given. */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** This response may carry a secret the contract hands out (login, password change, POST /tokens). */
  allowTokens?: boolean;
}

/** Every request this test file sent through an HttpClient, by status (0 = no answer): for the figures. */
export const requestTally = {
  sent: 0,
  byStatus: {} as Record<string, number>,
  count(status: number) {
    this.sent++;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  },
  get fiveXx() {
    return Object.entries(this.byStatus).reduce(
      (sum, [status, n]) => sum + (Number(status) >= 500 ? n : 0),
      0,
    );
  },
};

/** The outcome of a request that got no HTTP answer (connection refused, reset, timed out). */
export class NoAnswerError extends Error {
  constructor(
    readonly label: string,
    readonly ms: number,
    cause: unknown,
  ) {
    super(
      `${label}: no answer after ${ms} ms (${(cause as Error)?.name ?? 'error'}: ${(cause as Error)?.message ?? String(cause)})`,
    );
    this.name = 'NoAnswerError';
  }
}

/**
 * A small fetch-based client: every answer is scanned for leaks as it arrives, and every request has a
 * deadline (a hang is a failure, never a stuck test).
 */
export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly scanner?: LeakScanner,
  ) {}

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      if (options.contentType !== undefined) headers['content-type'] = options.contentType;
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const label = `${method} ${path}`;
    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
      text = await response.text();
    } catch (error) {
      requestTally.count(0);
      throw new NoAnswerError(label, Math.round(performance.now() - started), error);
    }
    requestTally.count(response.status);
    const ms = performance.now() - started;
    this.scanner?.scanResponse(`${label} → ${response.status}`, text, { allowTokens: options.allowTokens });
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: response.headers, text, body: parsed as T, ms };
  }

  get = <T = unknown>(path: string, options?: RequestOptions) => this.request<T>('GET', path, options);
  post = <T = unknown>(path: string, json?: unknown, options?: RequestOptions) =>
    this.request<T>('POST', path, { ...options, json });
  put = <T = unknown>(path: string, json?: unknown, options?: RequestOptions) =>
    this.request<T>('PUT', path, { ...options, json });
  patch = <T = unknown>(path: string, json?: unknown, options?: RequestOptions) =>
    this.request<T>('PATCH', path, { ...options, json });
  delete = <T = unknown>(path: string, options?: RequestOptions) => this.request<T>('DELETE', path, options);
}

const CODE_OF_STATUS: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * docs/api.md "Errors": what is wrong with an error answer's payload, or undefined when it is the contract's:
 * `error`, `status` (= HTTP status), `timestamp`, `code` (the status's code), `request_id` (= X-Request-Id),
 * `details` (a non-empty list of {path, message}) on 400.
 */
export function errorPayloadProblem(
  status: number,
  headers: { get(name: string): string | null },
  body: unknown,
): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return `not a JSON object: ${JSON.stringify(body)?.slice(0, 200)}`;
  const payload = body as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof payload['error'] !== 'string' || payload['error'] === '') problems.push('error missing');
  if (payload['status'] !== status) problems.push(`status ${String(payload['status'])} ≠ ${status}`);
  if (typeof payload['timestamp'] !== 'string' || !ISO_TIMESTAMP.test(payload['timestamp']))
    problems.push('timestamp not ISO 8601 with ms');
  const expectedCode = CODE_OF_STATUS[status];
  if (payload['code'] !== expectedCode) problems.push(`code ${String(payload['code'])} ≠ ${expectedCode}`);
  const requestId = headers.get('x-request-id');
  if (!requestId) problems.push('no X-Request-Id header');
  else if (payload['request_id'] !== requestId)
    problems.push(`request_id ${String(payload['request_id'])} ≠ X-Request-Id ${requestId}`);
  if (status === 400) {
    const details = payload['details'];
    const wellFormed =
      Array.isArray(details) &&
      details.length > 0 &&
      details.every(
        (d) =>
          d &&
          typeof d === 'object' &&
          typeof (d as Record<string, unknown>)['path'] === 'string' &&
          typeof (d as Record<string, unknown>)['message'] === 'string',
      );
    if (!wellFormed)
      problems.push(`details not a non-empty list of {path, message}: ${JSON.stringify(details)}`);
  }
  return problems.length ? problems.join('; ') : undefined;
}

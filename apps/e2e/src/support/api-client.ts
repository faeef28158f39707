import type { OpenApiConformance } from './openapi-conformance';

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw body text (malformed or oversized input), sent as it is with `contentType`. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /**
   * The request is deliberately one the document does not describe (an unknown path, a method the path
   * does not have): the answer must then be an error with the documented error payload.
   */
  undocumented?: boolean;
}

/** A response that contradicts the published OpenAPI document or the error payload rules. */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

/**
 * A tiny HTTP client for the end-to-end suite. Every response is checked against the published OpenAPI
 * document (path, method, status, content type, schema with no undocumented field) and an error payload's
 * `request_id` must equal the response's X-Request-Id; a mismatch throws a ConformanceError.
 * The type parameter only tells the compiler what the caller expects; the document checks the real shape.
 */
export class ApiClient {
  private turn = 0;

  /** `alsoAt`: other gateways of the same stack, asked in turn with `baseUrl` (a round-robin front). */
  constructor(
    readonly baseUrl: string,
    private readonly conformance: OpenApiConformance,
    private readonly alsoAt: readonly string[] = [],
  ) {}

  /** The gateway the next request goes to. */
  nextBaseUrl(): string {
    const urls = [this.baseUrl, ...this.alsoAt];
    return urls[this.turn++ % urls.length] ?? this.baseUrl;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const response = await fetch(`${this.nextBaseUrl()}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? undefined;
    const parsed: unknown =
      contentType?.includes('json') && text ? parseJson(text, `${method} ${path}`) : text;

    const problem =
      (options.undocumented
        ? this.conformance.checkUndocumented(method, path, response.status, parsed, contentType)
        : this.conformance.check(method, path, response.status, parsed, contentType)) ??
      requestIdProblem(response, parsed);
    if (problem) {
      throw new ConformanceError(`${method} ${path} → ${response.status}: ${problem}\n${text.slice(0, 500)}`);
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get = <T>(path: string, options?: RequestOptions) => this.request<T>('GET', path, options);
  post = <T>(path: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('POST', path, { ...options, body });
  put = <T>(path: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('PUT', path, { ...options, body });
  patch = <T>(path: string, body?: unknown, options?: RequestOptions) =>
    this.request<T>('PATCH', path, { ...options, body });
  delete = <T>(path: string, options?: RequestOptions) => this.request<T>('DELETE', path, options);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ConformanceError(
      `${what}: a JSON content type with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
}

/** docs/api.md "Conventions": every response carries X-Request-Id, and an error payload's request_id is the same id. */
function requestIdProblem(response: Response, body: unknown): string | undefined {
  const header = response.headers.get('x-request-id');
  if (!header) return 'no X-Request-Id header';
  // An error payload (the probes' 503 bodies are not one: they have no `code`).
  const isErrorPayload =
    response.status >= 400 && Boolean(body) && typeof body === 'object' && 'code' in (body as object);
  if (!isErrorPayload) return undefined;
  const requestId = (body as { request_id?: unknown }).request_id;
  return requestId === header
    ? undefined
    : `error payload request_id ${String(requestId)} differs from X-Request-Id ${header}`;
}

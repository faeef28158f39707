import type { OpenApiConformance } from './openapi-conformance';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw body text (for malformed input); sent as-is with `contentType`. */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * A tiny HTTP client for the end-to-end suite: talks only to the gateway, and checks every response
 * against the published OpenAPI document.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly conformance?: OpenApiConformance,
  ) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(15000) });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    const parsed = contentType.includes('json') && text ? JSON.parse(text) : text;
    if (this.conformance && path.startsWith('/api/v1/') || this.conformance && isProbe(path)) {
      const problem = this.conformance!.check(method, path, response.status, parsed, contentType || undefined);
      if (problem) throw new Error(`OpenAPI conformance: ${method} ${path} → ${response.status}: ${problem}\n${text.slice(0, 500)}`);
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get = <T = any>(path: string, options?: RequestOptions) => this.request<T>('GET', path, options);
  post = <T = any>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('POST', path, { ...options, body });
  put = <T = any>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('PUT', path, { ...options, body });
  patch = <T = any>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('PATCH', path, { ...options, body });
  delete = <T = any>(path: string, options?: RequestOptions) => this.request<T>('DELETE', path, options);
}

const isProbe = (path: string) => /^\/(livez|readyz|healthz|startupz|health)$/.test(path);

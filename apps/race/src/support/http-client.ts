export interface HttpAnswer<T> {
  status: number;
  body: T;
}

export interface HttpOptions {
  token?: string;
  json?: unknown;
}

/** Plain HTTP to the gateway (keep-alive, so a burst is not slowed down by connection set-up). */
export class HttpClient {
  constructor(readonly baseUrl: string) {}

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: HttpOptions = {},
  ): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = {};
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text for the failure message
    }
    return { status: response.status, body: body as T };
  }

  get = <T = Record<string, unknown>>(path: string, options?: HttpOptions) =>
    this.request<T>('GET', path, options);
  post = <T = Record<string, unknown>>(path: string, json: unknown, options?: HttpOptions) =>
    this.request<T>('POST', path, { ...options, json });
  put = <T = Record<string, unknown>>(path: string, json: unknown, options?: HttpOptions) =>
    this.request<T>('PUT', path, { ...options, json });
  delete = <T = Record<string, unknown>>(path: string, options?: HttpOptions) =>
    this.request<T>('DELETE', path, options);
}

import { Agent, request } from 'node:http';

export interface HttpAnswer {
  status: number;
  body: string;
  /** From writing the request to the last byte of the response, in ms. */
  ms: number;
}

export interface HttpRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  timeoutMs?: number;
}

/** One keep-alive connection pool per client, like a real API client (no connection set-up per request). */
export class HttpClient {
  readonly agent: Agent;

  constructor(maxSockets = 64) {
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  send(url: string, options: HttpRequest = {}): Promise<HttpAnswer> {
    const body = options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json));
    const headers: Record<string, string> = { ...options.headers };
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = request(
        url,
        { method: options.method ?? 'GET', headers, agent: this.agent, timeout: options.timeoutMs ?? 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              ms: Number(process.hrtime.bigint() - started) / 1e6,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () =>
        req.destroy(
          new Error(`${options.method ?? 'GET'} ${url}: no answer within ${options.timeoutMs ?? 30_000} ms`),
        ),
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Sends and insists on `expected` status; the error names the answer (without credentials). */
  async expect(url: string, expected: number, options: HttpRequest = {}): Promise<HttpAnswer> {
    const answer = await this.send(url, options);
    if (answer.status !== expected) {
      throw new Error(
        `${options.method ?? 'GET'} ${new URL(url).pathname}: expected ${expected}, got ${answer.status} ${answer.body.slice(0, 300)}`,
      );
    }
    return answer;
  }

  async json<T>(url: string, expected: number, options: HttpRequest = {}): Promise<T> {
    return JSON.parse((await this.expect(url, expected, options)).body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `task` over `items` with at most `concurrency` at a time; results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

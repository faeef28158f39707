import autocannon from 'autocannon';
import { summarise, type LatencySummary } from '../stats';

export interface LoadSpec {
  url: string;
  connections: number;
  durationS: number;
  method?: string;
  headers?: Record<string, string>;
  /** Rotated through, one per request (each connection starts at its own offset). */
  bodies?: string[];
  body?: string;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  ok: number;
  /** Non-2xx responses and connection errors/timeouts: any is a failed measurement. */
  failed: number;
  statuses: Record<string, number>;
  /** Of the 2xx responses, exact (every response time recorded), in ms. */
  latency: LatencySummary;
}

/** A closed-loop load (each connection sends its next request when the previous answered) with autocannon. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const headers = { ...spec.headers };
  if (spec.body !== undefined || spec.bodies) headers['content-type'] = 'application/json';
  let nextBody = 0;
  const bodies = spec.bodies;
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationS,
    method: spec.method ?? 'GET',
    headers,
    body: spec.body,
    timeout: 30,
    requests: bodies
      ? [
          {
            setupRequest: (request) => {
              request.body = bodies[nextBody++ % bodies.length];
              return request;
            },
          },
        ]
      : undefined,
  });
  const latencies: number[] = [];
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await instance;
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
  );
  return {
    rps: latencies.length / result.duration,
    ok: latencies.length,
    failed: result.non2xx + result.errors + result.timeouts,
    statuses,
    latency: summarise(latencies),
  };
}

/** Fails loudly on a load that got errors: a benchmark of error responses measures nothing useful. */
export function requireClean(label: string, result: LoadResult, tolerance = 0): LoadResult {
  if (result.failed > tolerance) {
    throw new Error(
      `${label}: ${result.failed} failed requests (statuses ${JSON.stringify(result.statuses)})`,
    );
  }
  return result;
}

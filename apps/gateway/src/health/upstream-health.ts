import type { UpstreamHealth } from '@mt/probes';
import type { RouteTable } from '@mt/registry-client';

export interface UpstreamHealthOptions {
  routeTable: RouteTable;
  authUrl: string;
  registryUrl: string;
  /** Per upstream; all are asked in parallel, so /health answers within about this long. */
  timeoutMs?: number;
}

async function probe(baseUrl: string, timeoutMs: number): Promise<UpstreamHealth> {
  try {
    const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200 ? { status: 'healthy' } : { status: 'unhealthy', error: `answered ${response.status}` };
  } catch (error) {
    // Not `instanceof Error`: fetch rejects with a DOMException, from another realm under some runners.
    const timedOut = (error as { name?: unknown } | undefined)?.name === 'TimeoutError';
    return { status: 'unhealthy', error: timedOut ? 'timed out' : 'unreachable' };
  }
}

/**
 * The gateway's /health `services`: the auth service, the registry, and every live catalog instance
 * (`catalog:{category}:{instance_id}`), each from its /healthz. Internal URLs are not published.
 */
export function upstreamHealth({ routeTable, authUrl, registryUrl, timeoutMs = 1000 }: UpstreamHealthOptions) {
  return async (): Promise<Record<string, UpstreamHealth>> => {
    const targets: Array<{ name: string; url: string; details?: Record<string, string> }> = [
      { name: 'auth', url: authUrl },
      { name: 'registry', url: registryUrl },
    ];
    for (const { service, instances } of routeTable.services()) {
      for (const instance of instances) {
        targets.push({
          name: `${service}:${instance.instance_id}`,
          url: instance.base_url.replace(/\/+$/, ''),
          details: { service, instance_id: instance.instance_id, version: instance.version },
        });
      }
    }
    const results = await Promise.all(
      targets.map(async ({ name, url, details }) => [name, { ...(await probe(url, timeoutMs)), ...details }] as const),
    );
    return Object.fromEntries(results);
  };
}

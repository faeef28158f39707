import type { UpstreamHealth, UpstreamsReport } from '@mt/probes';
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
 * The gateway's /health `services`, from each upstream's /healthz: the auth service and the registry (the
 * gateway's own dependencies) and every registered instance, asked in parallel. Two views: the public one
 * names each routed service (`catalog:{category}` for a category, `service:{id}` otherwise; healthy while one
 * of its instances is); the detailed one, served on the metrics port only, lists every instance
 * (`catalog:{category}:{instance_id}`) with its address and version. Instance ids carry host names and pids,
 * and addresses are internal: no client sees them.
 */
export function upstreamHealth({ routeTable, authUrl, registryUrl, timeoutMs = 1000 }: UpstreamHealthOptions) {
  return async (): Promise<UpstreamsReport> => {
    const instances = routeTable.services().flatMap(({ service, category, instances: live }) =>
      live.map((instance) => ({ name: category ? `catalog:${service}` : `service:${service}`, service, instance })),
    );
    const [auth, registry, routed] = await Promise.all([
      probe(authUrl, timeoutMs),
      probe(registryUrl, timeoutMs),
      Promise.all(instances.map(async (entry) => ({ ...entry, health: await probe(entry.instance.base_url.replace(/\/+$/, ''), timeoutMs) }))),
    ]);
    const detailed: Record<string, UpstreamHealth> = { auth, registry };
    const summary: Record<string, UpstreamHealth> = { auth, registry };
    for (const { name, service, instance, health } of routed) {
      detailed[`${name}:${instance.instance_id}`] = {
        ...health,
        service,
        instance_id: instance.instance_id,
        version: instance.version,
        base_url: instance.base_url,
      };
      if (health.status === 'healthy') summary[name] = { status: 'healthy' };
      else summary[name] ??= { status: 'unhealthy', error: 'no healthy instance' };
    }
    return { summary, detailed };
  };
}

import type { ServiceProcess, Stack } from '@mt/stack';

/**
 * The suites with two of every service (MT_TWO_OF_EVERYTHING=1, the `test:two-of-everything` target): a second
 * registry, auth service, scrobble service, catalog per category and gateway beside the first ones, the second of each talking to
 * the second registry (and the second gateway to the second auth service), all on the same stores.
 */
export const TWO_OF_EVERYTHING = process.env['MT_TWO_OF_EVERYTHING'] === '1';

/** The routed services the gateways must each see two instances of. */
const routedServices = (categories: readonly string[]) => ['service:auth', 'service:scrobble', ...categories.map((category) => `catalog:${category}`)];

/** Starts the second instances; resolves with them once every gateway routes to two of each service. */
export async function startSecondInstances(stack: Stack, categories: readonly string[]): Promise<ServiceProcess[]> {
  const registry = await stack.startInstance('registry-service');
  await registry.waitReady(60_000);
  const viaSecondRegistry = { REGISTRY_URL: registry.url };
  const auth = await stack.startInstance('auth-service', { env: viaSecondRegistry });
  const scrobble = await stack.startInstance('scrobble-service', { env: viaSecondRegistry });
  const catalogs = await Promise.all(categories.map((category) => stack.startCatalogInstance(category, { env: viaSecondRegistry })));
  const gateway = await stack.startInstance('gateway', { env: { ...viaSecondRegistry, AUTH_URL: auth.url } });
  const second = [registry, auth, scrobble, ...catalogs, gateway];
  await Promise.all(second.map((service) => service.waitReady(90_000)));
  await Promise.all(stack.processes.filter((service) => service.app === 'gateway').map((service) => waitForTwoOfEach(service, categories)));
  return second;
}

/** Until the gateway's detailed health (its metrics port) lists two healthy instances of every routed service. */
export async function waitForTwoOfEach(gateway: ServiceProcess, categories: readonly string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let counts: Record<string, number> = {};
  while (Date.now() < deadline) {
    const answer = await fetch(`${gateway.metricsUrl}/health`, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
    const body = answer?.ok ? ((await answer.json()) as { services?: Record<string, { status: string }> }) : undefined;
    counts = {};
    for (const [name, health] of Object.entries(body?.services ?? {})) {
      const service = routedServices(categories).find((routed) => name.startsWith(`${routed}:`));
      if (service && health.status === 'healthy') counts[service] = (counts[service] ?? 0) + 1;
    }
    if (routedServices(categories).every((service) => (counts[service] ?? 0) >= 2)) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${gateway.name} does not route to two instances of each service: ${JSON.stringify(counts)}`);
}

import type { CategoryRecord, LiveInstance, ManifestRoute, OpenApiFragment, RoutedService } from '@mt/contracts';
import type { RouteTable } from '@mt/registry-client';
import { catalogRoutes } from './manifests';

/**
 * An in-test RouteTable over instances the test starts itself (the registry is another service's
 * concern; Redis stays real in every test). Round robin like the real one. A service set without routes
 * gets a category's (docs/api.md "Endpoints").
 */
export class StaticRouteTable implements RouteTable {
  private readonly entries = new Map<string, RoutedService>();
  private readonly cursor = new Map<string, number>();
  private changes = 0;

  setInstances(service: string, baseUrls: Array<{ id: string; url: string }>, routes: ManifestRoute[] = catalogRoutes(service), category = true): this {
    const record: CategoryRecord = { id: service, name: service, display_name: service, description: `${service} (test)`, endpoint: `/api/v1/${service}`, icon: 'test' };
    this.entries.set(service, {
      service,
      ...(category ? { category: record } : {}),
      instances: baseUrls.map(({ id, url }) => ({ instance_id: id, base_url: url, version: '1.0.0', manifest_digest: 'f'.repeat(32) })),
      manifest: { digest: 'f'.repeat(32), routes },
      openapi: { paths: {}, components: {} },
      manifest_mismatch: false,
    });
    this.changes += 1;
    return this;
  }

  hasService(service: string): boolean {
    return this.entries.has(service);
  }

  removeService(service: string): void {
    this.entries.delete(service);
    this.changes += 1;
  }

  version(): number {
    return this.changes;
  }

  /** Nothing to load or follow: the test sets the instances. */
  async start(): Promise<void> {
    return undefined;
  }
  async stop(): Promise<void> {
    return undefined;
  }
  async refresh(): Promise<boolean> {
    return true;
  }
  loaded(): boolean {
    return true;
  }

  services(): RoutedService[] {
    return [...this.entries.values()].sort((a, b) => a.service.localeCompare(b.service));
  }

  categories(): CategoryRecord[] {
    return this.services()
      .filter((s) => s.category && s.instances.length > 0)
      .map((s) => s.category as CategoryRecord);
  }

  pickInstance(service: string, exclude?: ReadonlySet<string>): LiveInstance | undefined {
    const candidates = (this.entries.get(service)?.instances ?? []).filter((i) => !exclude?.has(i.instance_id));
    if (candidates.length === 0) return undefined;
    const index = (this.cursor.get(service) ?? 0) % candidates.length;
    this.cursor.set(service, index + 1);
    return candidates[index];
  }

  instances(service: string): LiveInstance[] {
    return [...(this.entries.get(service)?.instances ?? [])];
  }

  openApiFragments(): Array<{ service: string; fragment: OpenApiFragment }> {
    return [];
  }
}

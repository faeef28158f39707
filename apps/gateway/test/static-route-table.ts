import type { CategoryRecord, LiveInstance, OpenApiFragment } from '@mt/contracts';
import type { RouteTable } from '@mt/registry-client';

/**
 * An in-test RouteTable over instances the test starts itself (the registry is another service's
 * concern; Redis stays real in every test). Round robin like the real one.
 */
export class StaticRouteTable implements RouteTable {
  private readonly entries = new Map<string, LiveInstance[]>();
  private readonly cursor = new Map<string, number>();
  private changes = 0;

  setInstances(categoryId: string, baseUrls: Array<{ id: string; url: string }>): this {
    this.entries.set(
      categoryId,
      baseUrls.map(({ id, url }) => ({ instance_id: id, base_url: url, version: '1.0.0' })),
    );
    this.changes += 1;
    return this;
  }

  removeCategory(categoryId: string): void {
    this.entries.delete(categoryId);
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

  categories(): CategoryRecord[] {
    return [...this.entries.keys()].sort().map((id) => ({
      id,
      name: id,
      display_name: id,
      description: `${id} (test)`,
      endpoint: `/api/v1/${id}`,
      icon: 'test',
    }));
  }

  pickInstance(categoryId: string, exclude?: ReadonlySet<string>): LiveInstance | undefined {
    const candidates = (this.entries.get(categoryId) ?? []).filter((i) => !exclude?.has(i.instance_id));
    if (candidates.length === 0) return undefined;
    const index = (this.cursor.get(categoryId) ?? 0) % candidates.length;
    this.cursor.set(categoryId, index + 1);
    return candidates[index];
  }

  instances(categoryId: string): LiveInstance[] {
    return [...(this.entries.get(categoryId) ?? [])];
  }

  hasCategory(categoryId: string): boolean {
    return this.entries.has(categoryId);
  }

  openApiFragments(): Array<{ categoryId: string; fragment: OpenApiFragment }> {
    return [];
  }
}

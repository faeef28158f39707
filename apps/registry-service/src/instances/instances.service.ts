import { InstanceRegistrationSchema, type InstanceRegistration, type RoutedService, type RouteTableSnapshot } from '@mt/contracts';
import { errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import { createHash } from 'node:crypto';
import type { InstancesRepository, StoredInstance, StoredService } from './instances.repository';

export interface ManifestMismatch {
  service: string;
  /** Digest → the live instances that registered it. */
  digests: Record<string, string[]>;
}

/** The route table with a version naming it (the route table endpoint's ETag). */
export interface VersionedRouteTable {
  table: RouteTableSnapshot;
  version: string;
}

interface BuiltTable extends VersionedRouteTable {
  mismatches: ManifestMismatch[];
}

export interface InstancesServiceOptions {
  repository: InstancesRepository;
  ttlMs: number;
  /** How often this registry sweeps: the "watching" marker lives a few sweeps. */
  sweepIntervalMs: number;
  logger: Logger;
}

/** Live instances: registration, heartbeats, expiry, and the route table built from them. */
export class InstancesService {
  readonly ttlMs: number;
  private readonly repository: InstancesRepository;
  private readonly sweepIntervalMs: number;
  private readonly logger: Logger;
  /** Mismatches already logged, so a lasting disagreement is reported when it starts, not on every read. */
  private reportedMismatches = '';
  /**
   * The last table built, under the fingerprint of its sources. Every gateway reads the table every few
   * seconds; parsing and checking every registration (manifests and OpenAPI fragments, about a megabyte)
   * again when nothing changed was most of an idle registry's CPU.
   */
  private built: { fingerprint: string; table: BuiltTable } | undefined;

  constructor(options: InstancesServiceOptions) {
    this.repository = options.repository;
    this.ttlMs = options.ttlMs;
    this.sweepIntervalMs = options.sweepIntervalMs;
    this.logger = options.logger;
  }

  /** Idempotent: resolves `created: false` when the instance was already live (its registration is refreshed). */
  async register(instanceId: string, registration: InstanceRegistration): Promise<{ created: boolean }> {
    const created = await this.repository.register(instanceId, registration.service, JSON.stringify(registration), this.ttlMs);
    if (created) {
      this.logger.debug({ instance_id: instanceId, service: registration.service, base_url: registration.base_url, manifest: registration.manifest.digest }, 'instance registered');
    }
    return { created };
  }

  /** 404 when the instance is unknown or expired, which tells it to register again. */
  async heartbeat(instanceId: string): Promise<void> {
    if (!(await this.repository.heartbeat(instanceId, this.ttlMs))) throw errors.notFound('unknown or expired instance; register again');
  }

  async deregister(instanceId: string): Promise<void> {
    if (!(await this.repository.deregister(instanceId))) throw errors.notFound('unknown instance');
    this.logger.info({ instance_id: instanceId }, 'instance deregistered');
  }

  /** Forgets a service that has no live instance (its routes then answer 404); 409 while it has one. */
  async forgetService(service: string): Promise<void> {
    const { table } = await this.snapshot();
    const entry = table.services.find((candidate) => candidate.service === service);
    if (!entry) throw errors.notFound('unknown service');
    if (entry.instances.length > 0) throw errors.conflict('the service has live instances; stop them first');
    await this.repository.forgetService(service);
    this.logger.info({ service }, 'service forgotten');
  }

  async routeTable(): Promise<VersionedRouteTable> {
    const { table, version } = await this.snapshot();
    return { table, version };
  }

  /** Services whose live instances disagree on their route manifest (for /health). */
  async manifestMismatches(): Promise<ManifestMismatch[]> {
    return (await this.snapshot()).mismatches;
  }

  /** Removes expired instances; resolves their ids. */
  async sweepExpired(): Promise<string[]> {
    const expired = await this.repository.removeExpired(this.sweepIntervalMs * 3);
    if (expired.length) this.logger.info({ instance_ids: expired }, 'expired instances removed');
    return expired;
  }

  /** At start-up: instances whose heartbeats nobody was there to receive get one TTL to prove themselves. */
  async grantAmnesty(): Promise<number> {
    const granted = await this.repository.grantAmnesty(this.ttlMs);
    if (granted) this.logger.info({ instances: granted, ttl_ms: this.ttlMs }, 'no registry was watching: recorded instances get one TTL to send a heartbeat');
    return granted;
  }

  /**
   * The table as the store holds it now: the last one built while its sources' fingerprint is unchanged,
   * else built again from sources read together with their fingerprint (so a table is never kept under a
   * fingerprint newer than what it was built from).
   */
  private async snapshot(): Promise<BuiltTable> {
    const fingerprint = await this.repository.routeSourcesFingerprint();
    if (this.built?.fingerprint === fingerprint) return this.built.table;
    const sources = await this.repository.routeSources();
    const { table, mismatches } = buildRouteTable(sources.live, sources.known, this.logger);
    const key = JSON.stringify(mismatches);
    if (key !== this.reportedMismatches) {
      this.reportedMismatches = key;
      for (const mismatch of mismatches) {
        this.logger.warn({ service: mismatch.service, digests: mismatch.digests }, 'instances of one service disagree on their route manifest; routing follows the newest registration');
      }
    }
    const built = { table, mismatches, version: createHash('sha256').update(JSON.stringify(table)).digest('base64url') };
    this.built = { fingerprint: sources.fingerprint, table: built };
    return built;
  }
}

interface ParsedInstance {
  instanceId: string;
  registration: InstanceRegistration;
  registeredAtMs: number;
}

function parseRegistration(json: string, what: string, logger: Logger): InstanceRegistration | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    value = undefined;
  }
  const parsed = InstanceRegistrationSchema.safeParse(value);
  if (!parsed.success) {
    logger.warn({ what }, 'ignoring an unreadable stored registration');
    return undefined;
  }
  return parsed.data;
}

const byString = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/**
 * Groups live instances by service (sorted by id; instances by instance id) and adds the services known
 * from earlier registrations that have no live instance now. During a rolling upgrade instances of one
 * service may disagree: the most recently registered instance speaks for the service (ties broken by
 * instance id), so the newest version wins, and the disagreement is reported.
 */
export function buildRouteTable(
  stored: StoredInstance[],
  known: StoredService[],
  logger: Logger,
): { table: RouteTableSnapshot; mismatches: ManifestMismatch[] } {
  const byService = new Map<string, ParsedInstance[]>();
  for (const { instanceId, registrationJson, registeredAtMs } of stored) {
    const registration = parseRegistration(registrationJson, `instance ${instanceId}`, logger);
    if (!registration) continue;
    byService.set(registration.service, [...(byService.get(registration.service) ?? []), { instanceId, registration, registeredAtMs }]);
  }
  const services: RoutedService[] = [];
  const mismatches: ManifestMismatch[] = [];
  for (const [service, instances] of byService) {
    const speaker = instances.reduce((best, candidate) =>
      candidate.registeredAtMs > best.registeredAtMs || (candidate.registeredAtMs === best.registeredAtMs && candidate.instanceId > best.instanceId)
        ? candidate
        : best,
    );
    const digests: Record<string, string[]> = {};
    for (const { instanceId, registration } of instances) (digests[registration.manifest.digest] ??= []).push(instanceId);
    if (Object.keys(digests).length > 1) mismatches.push({ service, digests });
    services.push(routedService(speaker.registration, instances, Object.keys(digests).length > 1));
  }
  for (const { service, registrationJson } of known) {
    if (byService.has(service)) continue;
    const registration = parseRegistration(registrationJson, `service ${service}`, logger);
    if (registration) services.push(routedService(registration, [], false));
  }
  services.sort(byString((entry) => entry.service));
  return { table: { services }, mismatches };
}

function routedService(registration: InstanceRegistration, instances: ParsedInstance[], mismatch: boolean): RoutedService {
  return {
    service: registration.service,
    ...(registration.category ? { category: registration.category } : {}),
    instances: instances
      .map(({ instanceId, registration: own }) => ({ instance_id: instanceId, base_url: own.base_url, version: own.version, manifest_digest: own.manifest.digest }))
      .sort(byString((instance) => instance.instance_id)),
    manifest: registration.manifest,
    openapi: registration.openapi,
    manifest_mismatch: mismatch,
  };
}

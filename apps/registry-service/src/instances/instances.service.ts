import { InstanceRegistrationSchema, type InstanceRegistration, type RouteTableSnapshot } from '@mt/contracts';
import { errors } from '@mt/errors';
import type { Logger } from '@mt/logging';
import type { InstancesRepository, StoredInstance } from './instances.repository';

export interface InstancesService {
  readonly ttlMs: number;
  /** Idempotent: resolves `created: false` when the instance was already live (its registration is refreshed). */
  register(instanceId: string, registration: InstanceRegistration): Promise<{ created: boolean }>;
  /** 404 when the instance is unknown or expired, which tells it to register again. */
  heartbeat(instanceId: string): Promise<void>;
  deregister(instanceId: string): Promise<void>;
  routeTable(): Promise<RouteTableSnapshot>;
  /** Removes expired instances; resolves their ids. */
  sweepExpired(): Promise<string[]>;
}

export function createInstancesService(deps: { repository: InstancesRepository; ttlMs: number; logger: Logger }): InstancesService {
  const { repository, ttlMs, logger } = deps;
  return {
    ttlMs,
    async register(instanceId, registration) {
      const created = await repository.register(instanceId, JSON.stringify(registration), ttlMs);
      if (created) {
        logger.info({ instance_id: instanceId, category: registration.category.id, base_url: registration.base_url }, 'instance registered');
      }
      return { created };
    },
    async heartbeat(instanceId) {
      if (!(await repository.heartbeat(instanceId, ttlMs))) throw errors.notFound('unknown or expired instance; register again');
    },
    async deregister(instanceId) {
      if (!(await repository.deregister(instanceId))) throw errors.notFound('unknown instance');
      logger.info({ instance_id: instanceId }, 'instance deregistered');
    },
    async routeTable() {
      return buildRouteTable(await repository.liveInstances(), logger);
    },
    async sweepExpired() {
      const expired = await repository.removeExpired();
      if (expired.length) logger.info({ instance_ids: expired }, 'expired instances removed');
      return expired;
    },
  };
}

interface ParsedInstance {
  instanceId: string;
  registration: InstanceRegistration;
  registeredAtMs: number;
}

function parseStored(stored: StoredInstance, logger: Logger): ParsedInstance | undefined {
  let json: unknown;
  try {
    json = JSON.parse(stored.registrationJson);
  } catch {
    json = undefined;
  }
  const parsed = InstanceRegistrationSchema.safeParse(json);
  if (!parsed.success) {
    logger.warn({ instance_id: stored.instanceId }, 'ignoring an unreadable stored registration');
    return undefined;
  }
  return { instanceId: stored.instanceId, registration: parsed.data, registeredAtMs: stored.registeredAtMs };
}

/**
 * Groups live instances by category (sorted by id; instances sorted by instance id). During a rolling
 * upgrade instances of one category may disagree on the category record or fragment: the most recently
 * registered instance speaks for the category (ties broken by instance id), so the newest version wins.
 */
export function buildRouteTable(stored: StoredInstance[], logger: Logger): RouteTableSnapshot {
  const byCategory = new Map<string, ParsedInstance[]>();
  for (const instance of stored.map((s) => parseStored(s, logger))) {
    if (!instance) continue;
    const id = instance.registration.category.id;
    byCategory.set(id, [...(byCategory.get(id) ?? []), instance]);
  }
  const categories = [...byCategory.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, instances]) => {
      const speaker = instances.reduce((best, candidate) =>
        candidate.registeredAtMs > best.registeredAtMs ||
        (candidate.registeredAtMs === best.registeredAtMs && candidate.instanceId > best.instanceId)
          ? candidate
          : best,
      );
      return {
        category: speaker.registration.category,
        instances: instances
          .map(({ instanceId, registration }) => ({ instance_id: instanceId, base_url: registration.base_url, version: registration.version }))
          .sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0)),
        openapi: speaker.registration.openapi,
      };
    });
  return { categories };
}

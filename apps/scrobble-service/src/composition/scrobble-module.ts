import type { Logger } from '@mt/logging';
import type { RouteTable } from '@mt/registry-client';
import type { Redis } from '@mt/stores';
import type { Connection } from 'mongoose';
import { CatalogClient } from '../data/catalog.client';
import { ScrobbleDatabase } from '../data/database';
import { EventsRepository } from '../data/events.repository';
import { RedisHookRateLimit } from '../data/hook-rate-limit';
import { HookLimitReached, HooksRepository } from '../data/hooks.repository';
import { InboxRepository } from '../data/inbox.repository';
import { MappingsRepository } from '../data/mappings.repository';
import { PlayGuardsRepository } from '../data/play-guards.repository';
import type { CatalogPort } from '../domain/ports';
import { AccountDeletionService } from '../features/account-deletion/account-deletion.service';
import { HooksService } from '../features/hooks/hooks.service';
import { InboxService } from '../features/inbox/inbox.service';
import { EventProcessor } from '../features/processing/event-processor';
import { Matcher } from '../features/processing/matcher';
import { ReceiverService } from '../features/receiving/receiver.service';
import { ScrobbleQueue, type ScrobbleQueueOptions } from '../workers/event-queue';
import { PendingSweep } from '../workers/pending-sweep';

export interface ScrobbleModuleOptions {
  connection: Connection;
  redis: Redis;
  logger: Logger;
  routeTable: RouteTable;
  internalSecret: string;
  keyPrefix: string;
  publicUrl?: string;
  hookEventsPerMinute: number;
  queue: Omit<ScrobbleQueueOptions, 'logger' | 'keyPrefix'>;
  sweep: { intervalMs: number; graceMs: number };
  providerPatienceMs: number;
  /** Tests put a catalog of their own here; by default the catalog instances of the route table. */
  catalog?: CatalogPort;
}

/** The scrobble service's parts wired to its stores; `prepare()` runs once connected. */
export function createScrobbleModule(options: ScrobbleModuleOptions) {
  const { connection, redis, logger } = options;
  const db = new ScrobbleDatabase(connection);
  const hooks = new HooksRepository(db);
  const events = new EventsRepository(db);
  const guards = new PlayGuardsRepository(db);
  const inbox = new InboxRepository(db);
  const mappings = new MappingsRepository(db);
  const catalog = options.catalog ?? new CatalogClient({ routeTable: options.routeTable, internalSecret: options.internalSecret });
  const queue = new ScrobbleQueue({ ...options.queue, keyPrefix: options.keyPrefix, logger });
  const processor = new EventProcessor({ events, hooks, inbox, matcher: new Matcher({ catalog, mappings }), catalog, logger, providerPatienceMs: options.providerPatienceMs });
  const sweep = new PendingSweep({ events, queue, logger, ...options.sweep });
  return {
    connection,
    hooks: new HooksService({ hooks, isLimitReached: (error) => error instanceof HookLimitReached }),
    receiver: new ReceiverService({ hooks, events, guards, queue, rateLimit: new RedisHookRateLimit({ redis, keyPrefix: options.keyPrefix, perMinute: options.hookEventsPerMinute, logger }), logger }),
    inbox: new InboxService({ inbox, events, mappings, processor }),
    processor,
    sweep,
    accountDeletion: new AccountDeletionService({ hooks, events, guards, inbox, mappings }),
    publicUrl: options.publicUrl,

    async prepare(): Promise<void> {
      await Promise.all([hooks.ensureIndexes(), events.ensureIndexes(), guards.ensureIndexes(), inbox.ensureIndexes(), mappings.ensureIndexes()]);
    },

    /** The worker, and the sweep that queues again what a lost job left pending. */
    startWork(): void {
      queue.start((eventId) => processor.process(eventId));
      sweep.start();
    },

    async stopWork(): Promise<void> {
      sweep.stop();
      await queue.close();
    },
  };
}

export type ScrobbleModule = ReturnType<typeof createScrobbleModule>;

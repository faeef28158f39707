import type { Logger } from '@mt/logging';
import type { EventQueue, EventStore } from '../domain/store-ports';

/**
 * Queues again the events still pending a while after they were accepted: their job was never queued
 * (Redis down at the 202), ran out of attempts (the catalog down for long), or was lost with Redis' data.
 * Queueing is idempotent per event id, so a job still waiting is not doubled.
 */
export class PendingSweep {
  private timer?: NodeJS.Timeout;

  constructor(private readonly deps: { events: EventStore; queue: EventQueue; logger: Logger; intervalMs: number; graceMs: number }) {}

  async sweep(): Promise<number> {
    const ids = await this.deps.events.pendingIds(new Date(Date.now() - this.deps.graceMs), 500);
    for (const id of ids) await this.deps.queue.enqueue(id);
    return ids.length;
  }

  start(): void {
    const tick = () => {
      this.sweep()
        .then((count) => count && this.deps.logger.info({ events: count }, 'pending scrobble events queued again'))
        .catch((error: unknown) => this.deps.logger.warn({ reason: (error as Error).message }, 'pending scrobble events not swept'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.deps.intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

import type { Logger } from '@mt/logging';
import { isAppError } from '@mt/errors';
import type { RefreshClaims } from '../domain/ports/refresh-claims.port';
import type { WatchingItems } from '../domain/ports/watching-items.port';

const DAY_SECONDS = 24 * 60 * 60;
/** Shows refreshed per pass at most: a pass stays short, the next one continues. */
const SHOWS_PER_PASS = 500;

export interface ShowRefreshWorkerOptions {
  items: WatchingItems;
  claims: RefreshClaims;
  /** Re-reads one entry from its provider, as a moderator would. */
  refresh: (itemId: string) => Promise<unknown>;
  logger: Logger;
  /** How often a pass looks for shows not refreshed today. */
  intervalMs?: number;
}

/**
 * Keeps the shows people watch up to date with their provider (new episodes, air dates): each pass refreshes
 * every watched show no instance has refreshed in the last day.
 */
export class ShowRefreshWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: ShowRefreshWorkerOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.pass(), this.options.intervalMs ?? 60 * 60 * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a pass already running is joined, not doubled. */
  pass(): Promise<void> {
    this.running ??= this.refreshWatched().finally(() => (this.running = undefined));
    return this.running;
  }

  private async refreshWatched(): Promise<void> {
    const { items, claims, refresh, logger } = this.options;
    let refreshed = 0;
    try {
      for (const id of await items.watchingItemIds(SHOWS_PER_PASS)) {
        if (!(await claims.claim(id.toHexString(), DAY_SECONDS))) continue;
        try {
          await refresh(id.toHexString());
          refreshed++;
        } catch (error) {
          // A show with no provider id, or a provider down: tomorrow's pass tries again.
          if (isAppError(error)) logger.debug({ item_id: id.toHexString(), reason: error.message }, 'show not refreshed');
          else logger.warn({ item_id: id.toHexString(), err: error }, 'show refresh failed');
        }
      }
    } catch (error) {
      logger.warn({ err: error }, 'watched shows could not be read for the daily refresh');
    }
    if (refreshed) logger.info({ refreshed }, 'watched shows refreshed from their provider');
  }
}

import type { Logger } from '@mt/logging';

export interface ExpirySweeperOptions {
  sweep: () => Promise<unknown>;
  intervalMs: number;
  logger: Logger;
}

/**
 * Periodically removes expired instances, which publishes the change so gateways follow within
 * seconds. Safe with several registry instances: each removal is atomic in Redis, so an instance is
 * removed (and announced) once, whichever registry gets there first.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(private readonly options: ExpirySweeperOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** Stops sweeping; resolves once a sweep in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    this.running = this.options
      .sweep()
      .then(() => undefined)
      .catch((error: Error) => this.options.logger.warn({ reason: error.message }, 'expiry sweep failed; retrying at the next interval'))
      .finally(() => {
        if (!this.stopped) this.schedule();
      });
  }
}

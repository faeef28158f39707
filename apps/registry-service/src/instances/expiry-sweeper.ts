import type { Logger } from '@mt/logging';

export interface ExpirySweeper {
  start(): void;
  /** Stops sweeping; resolves once a sweep in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Periodically removes expired instances, which publishes the change so gateways follow within
 * seconds. Safe with several registry instances: each removal is atomic in Redis, so an instance is
 * removed (and announced) once, whichever registry gets there first.
 */
export function createExpirySweeper(options: { sweep: () => Promise<unknown>; intervalMs: number; logger: Logger }): ExpirySweeper {
  const { sweep, intervalMs, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = true;

  const tick = () => {
    running = sweep()
      .then(() => undefined)
      .catch((error: Error) => logger.warn({ reason: error.message }, 'expiry sweep failed; retrying at the next interval'))
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

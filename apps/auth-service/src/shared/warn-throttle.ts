import type { Logger } from '@mt/logging';

/**
 * Logs a warning about an outage once per `intervalMs` instead of once per request, and a
 * recovery line when it ends.
 */
export class OutageLog {
  private lastWarnedAt = 0;
  private down = false;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
    private readonly intervalMs = 60_000,
  ) {}

  failed(error: unknown, context: Record<string, unknown> = {}): void {
    this.down = true;
    const now = Date.now();
    if (now - this.lastWarnedAt < this.intervalMs) return;
    this.lastWarnedAt = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn({ ...context, reason }, this.what);
  }

  succeeded(): void {
    if (!this.down) return;
    this.down = false;
    this.lastWarnedAt = 0;
    this.logger.info(`${this.what}: recovered`);
  }
}

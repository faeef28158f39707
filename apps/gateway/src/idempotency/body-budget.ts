import { AppError } from '@mt/errors';
import type { Metrics } from '@mt/metrics';
import { Gauge } from 'prom-client';

/** Bytes of one request's body held against the budget; grows as the body arrives, released once. */
export interface BodyReservation {
  /** Holds at least `bytes` in all for this body, or throws a 503 (with Retry-After) when there is no room. */
  cover(bytes: number): void;
  release(): void;
}

const GAUGE_NAME = 'gateway_idempotency_buffered_bytes';

const budgetExhausted = () =>
  new AppError('service_unavailable', 'too many request bodies are being read at once; retry in a moment', {
    headers: { 'Retry-After': '1' },
  });

/**
 * The bytes of request bodies the gateway holds at once to fingerprint `Idempotency-Key` requests, across
 * every request of this process: a body that would take it over `limitBytes` is refused (503) rather than
 * read, so concurrent large uploads cannot grow the gateway's memory without bound.
 */
export class BodyBudget {
  private readonly gauge: Gauge;
  private held = 0;

  constructor(
    private readonly limitBytes: number,
    metrics: Metrics,
  ) {
    this.gauge =
      (metrics.registry.getSingleMetric(GAUGE_NAME) as Gauge | undefined) ??
      new Gauge({
        name: GAUGE_NAME,
        help: 'Request body bytes the gateway holds to fingerprint Idempotency-Key requests',
        registers: [metrics.registry],
      });
  }

  /** Bytes held right now. */
  inUse(): number {
    return this.held;
  }

  reserve(): BodyReservation {
    let mine = 0;
    let released = false;
    return {
      cover: (bytes) => {
        const more = bytes - mine;
        if (released || more <= 0) return;
        if (this.held + more > this.limitBytes) throw budgetExhausted();
        mine = bytes;
        this.set(this.held + more);
      },
      release: () => {
        if (released) return;
        released = true;
        this.set(this.held - mine);
      },
    };
  }

  private set(bytes: number): void {
    this.held = bytes;
    this.gauge.set(bytes);
  }
}

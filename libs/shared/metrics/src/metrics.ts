import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per process, created with the service name as a default label.
 * Services record through the typed helpers below; /metrics renders the registry.
 */
export function createMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route template and status',
      labelNames,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by method, route template and status',
      labelNames,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    /** Gateway: proxy failures by upstream (auth or a category) and kind (refused, reset, timeout, no_instance). */
    upstreamErrors: new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Upstream failures seen by the gateway',
      labelNames: ['upstream', 'kind'] as const,
      registers: [registry],
    }),
    /** Gateway: PAT cache lookups by result (hit, miss); hit ratio = hit / (hit + miss). */
    patCacheLookups: new Counter({
      name: 'gateway_pat_cache_lookups_total',
      help: 'Personal access token cache lookups in Redis by result',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    /** Catalog: entries of the account-event stream not yet handled by this category's group. */
    eventConsumerLag: new Gauge({
      name: 'events_consumer_lag',
      help: 'Account events not yet acknowledged by this consumer group (pending + unread)',
      labelNames: ['stream', 'group'] as const,
      registers: [registry],
    }),
    eventsProcessed: new Counter({
      name: 'events_processed_total',
      help: 'Account events handled, by type and outcome',
      labelNames: ['type', 'outcome'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

import { createMetrics } from './metrics';

describe('createMetrics', () => {
  it('labels every metric with the service', async () => {
    const metrics = createMetrics('registry-service');
    metrics.eventsProcessed.inc({ type: 'user.deleted', outcome: 'ok' });
    expect(await metrics.registry.metrics()).toContain(
      'events_processed_total{type="user.deleted",outcome="ok",service="registry-service"} 1',
    );
  });

  it('gives each call its own registry, so two apps in one test process do not share counts', async () => {
    const a = createMetrics('a');
    const b = createMetrics('b');
    a.patCacheLookups.inc({ result: 'hit' });
    expect((await a.patCacheLookups.get()).values).toEqual([expect.objectContaining({ value: 1 })]);
    expect((await b.patCacheLookups.get()).values).toEqual([]);
  });

  it('registers the documented families with process defaults', async () => {
    const text = await createMetrics('gateway').registry.metrics();
    for (const family of [
      'http_requests_total',
      'http_request_duration_seconds',
      'gateway_upstream_errors_total',
      'gateway_pat_cache_lookups_total',
      'events_consumer_lag',
      'events_processed_total',
      'process_cpu_user_seconds_total',
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
  });
});

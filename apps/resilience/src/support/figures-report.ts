// No path aliases here: the global teardown imports this file outside Jest's module mapper.

type Section = Record<string, unknown>;

const num = (value: unknown): string => (typeof value === 'number' ? String(value) : '-');
const section = (figures: Record<string, unknown>, name: string): Section | undefined => {
  const value = figures[name];
  return value && typeof value === 'object' ? (value as Section) : undefined;
};
const counts = (value: unknown): string =>
  value && typeof value === 'object'
    ? Object.entries(value as Record<string, number>)
        .map(([key, count]) => `${key}: ${count}`)
        .join(', ')
    : '-';

/** The figures of a run as a short readable block (the same data as tmp/resilience-results.json). */
export function formatFigures(figures: Record<string, unknown>): string {
  const lines = ['═══ resilience figures ═══'];
  const hostile = section(figures, 'hostile_input');
  if (hostile) {
    lines.push(
      `hostile input : ${num(hostile['requests'])} requests, outcomes by status {${counts(hostile['by_status'])}}`,
      `                ${num(hostile['as_documented'])} answered as documented, ${num(hostile['failures'])} not; databases unchanged: ${String(hostile['databases_unchanged'])} (${num(hostile['collections_compared'])} collections)`,
    );
  }
  const faults = section(figures, 'faults');
  if (faults) {
    lines.push(
      `faults        : ${num(faults['injected'])} injected, ${num(faults['survived'])} survived, ${num(faults['process_exits'])} unexpected process exits`,
      `                ${num(faults['requests'])} requests, ${num(faults['five_xx'])} 5xx seen while faults were injected (${num(faults['unexpected_5xx'])} not called for by the fault)`,
    );
    for (const fault of (faults['list'] as Section[] | undefined) ?? []) {
      lines.push(
        `                - ${String(fault['name'])}: ${fault['survived'] ? 'survived' : 'FAILED'}${fault['note'] ? ` (${String(fault['note'])})` : ''}`,
      );
    }
  }
  const load = section(figures, 'load');
  if (load) {
    lines.push(
      `load          : ${num(load['requests'])} requests in ${num(load['duration_s'])} s (${num(load['achieved_rps'])} req/s), 5xx: ${num(load['five_xx'])}, no answer: ${num(load['no_answer'])}`,
      `                by status {${counts(load['by_status'])}}; latency p50 ${num(load['p50_ms'])} ms, p99 ${num(load['p99_ms'])} ms`,
      `                writes acknowledged ${num(load['writes_acknowledged'])}, verified ${num(load['writes_verified'])}, lost ${num(load['writes_lost'])}`,
    );
    const memory = load['memory'] as Record<string, Section> | undefined;
    for (const [name, sample] of Object.entries(memory ?? {})) {
      lines.push(
        `                ${name.padEnd(17)} RSS ${num(sample['first_quarter_mb'])} → ${num(sample['last_quarter_mb'])} MiB (${num(sample['growth_pct'])}%), max ${num(sample['max_mb'])}; live heap ${num(sample['live_heap_first_quarter_mb'])} → ${num(sample['live_heap_last_quarter_mb'])} MiB (${num(sample['live_heap_growth_pct'])}%)`,
      );
    }
  }
  let requests = 0;
  let fiveXx = 0;
  let unexpected = 0;
  for (const name of ['hostile_input', 'faults', 'load']) {
    const s = section(figures, name);
    if (typeof s?.['requests'] === 'number') requests += s['requests'] as number;
    if (typeof s?.['five_xx'] === 'number') fiveXx += s['five_xx'] as number;
    if (typeof s?.['unexpected_5xx'] === 'number') unexpected += s['unexpected_5xx'] as number;
  }
  const leaks = ['hostile_input', 'faults', 'load']
    .map((name) => section(figures, name)?.['leak_scan'] as Section | undefined)
    .filter(Boolean) as Section[];
  lines.push(
    `total         : ${requests} requests sent, ${fiveXx} 5xx seen, ${unexpected} of them unexpected`,
  );
  if (leaks.length) {
    const sum = (key: string) =>
      leaks.reduce((total, leak) => total + (typeof leak[key] === 'number' ? (leak[key] as number) : 0), 0);
    lines.push(
      `leak scan     : ${sum('responses_scanned')} responses and ${sum('log_lines_scanned')} log lines scanned, ${sum('leaks')} leaks`,
    );
  }
  return lines.join('\n');
}

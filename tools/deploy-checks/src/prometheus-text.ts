/** One sample of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((m) => [m[1], m[2]]));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels`; 0 when absent (a counter not yet touched). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string>): number {
  const matching = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (matching.length > 1)
    throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return matching[0]?.value ?? 0;
}

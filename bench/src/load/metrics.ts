import { HttpClient } from './http-client';

/** The value of one counter series in a Prometheus text exposition (0 when absent). */
export function counterValue(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.indexOf('}'));
    const matches = Object.entries(labels).every(([key, value]) => body.includes(`${key}="${value}"`));
    if (matches) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

export async function scrape(url: string): Promise<string> {
  const client = new HttpClient(1);
  try {
    return (await client.expect(`${url}/metrics`, 200)).body;
  } finally {
    client.close();
  }
}

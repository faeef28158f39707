import { HttpClient } from '../load/http-client';
import type { BenchOptions } from '../options';
import { median, round } from '../stats';

export interface BulkResults {
  ids: number;
  runs_ms: number[];
  median_ms: number;
  min_ms: number;
  max_ms: number;
}

/**
 * POST /movies/bulk-status with 500 ids that are all on the user's list, through the gateway, one at a
 * time, alternating the target status so every run really moves 500 entries (one transaction: read the
 * entries, check the date rule for each, one updateMany). The first run is a warm-up and not counted.
 */
export async function measureBulkStatus(
  gatewayUrl: string,
  jwt: string,
  itemIds: readonly string[],
  options: BenchOptions,
  log: (text: string) => void,
): Promise<BulkResults> {
  const client = new HttpClient(1);
  const statuses = ['on_hold', 'completed', 'dropped', 'watching'] as const;
  const runs: number[] = [];
  try {
    for (let run = 0; run <= options.bulkRuns; run++) {
      const answer = await client.expect(`${gatewayUrl}/api/v1/movies/bulk-status`, 200, {
        method: 'POST',
        headers: { authorization: `Bearer ${jwt}` },
        json: { item_ids: itemIds, status: statuses[run % statuses.length] },
      });
      const body = JSON.parse(answer.body) as { updated: number; not_found: string[] };
      if (body.updated !== itemIds.length || body.not_found.length) {
        throw new Error(
          `bulk-status: updated ${body.updated} of ${itemIds.length}, not found ${body.not_found.length}`,
        );
      }
      if (run > 0) runs.push(answer.ms);
    }
  } finally {
    client.close();
  }
  const result = {
    ids: itemIds.length,
    runs_ms: runs.map((ms) => round(ms, 1)),
    median_ms: round(median(runs), 1),
    min_ms: round(Math.min(...runs), 1),
    max_ms: round(Math.max(...runs), 1),
  };
  log(
    `    ${result.ids} ids: median ${result.median_ms} ms (min ${result.min_ms}, max ${result.max_ms}) over ${runs.length} runs`,
  );
  return result;
}

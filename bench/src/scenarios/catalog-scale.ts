import { HttpClient } from '../load/http-client';
import type { BenchOptions } from '../options';
import { round } from '../stats';
import { compareLatency, type UnloadedLatencyStats } from './compare';
import { required } from '../required';

/** Issue 16: deep pages by offset and by cursor, and lookup by external id beside title search. */
export interface CatalogScaleResults {
  entries: number;
  limit: number;
  /** The deep page's number (2 000 at 100 000 entries and limit 50: the last page). */
  deep_page: number;
  /** Unloaded latency through the gateway, one request at a time, the four pages interleaved. */
  pages: {
    offset_first: UnloadedLatencyStats;
    offset_deep: UnloadedLatencyStats;
    cursor_first: UnloadedLatencyStats;
    cursor_deep: UnloadedLatencyStats;
  };
  /** Deep page ÷ page 1, by median (p50) and p95. */
  ratios: { cursor_p50: number; cursor_p95: number; offset_p50: number; offset_p95: number };
  lookup: {
    external_id_query: string;
    title_query: string;
    external_id: UnloadedLatencyStats;
    title_search: UnloadedLatencyStats;
    /** External id lookup p95 ÷ title search p95. */
    ratio_p95: number;
  };
}

interface PageAnswer {
  total: number;
  page: number;
  data: Array<{ id: string }>;
  next_cursor: string | null;
}

/**
 * At the current catalog size (the benchmark's largest: 100 000), through the gateway: page 1 and page
 * `deep` (limit 50, title order) by offset and by cursor — the deep cursor is the `next_cursor` of the
 * offset page just before it, which the API gives on offset pages — and `?external_id=imdb:…` beside the
 * search's `?q=<prefix>&limit=20`. Every answer is checked first (page 1 the same by offset and cursor, the deep pages non-empty).
 */
export async function measureCatalogScale(
  gatewayUrl: string,
  size: number,
  lookup: { imdb: string; expectedId: string; titlePrefix: string },
  options: BenchOptions,
  log: (text: string) => void,
): Promise<CatalogScaleResults> {
  const limit = 50;
  const deep = Math.max(2, Math.min(2000, Math.floor(size / limit)));
  const base = `${gatewayUrl}/api/v1/movies?limit=${limit}`;
  const client = new HttpClient(1);
  try {
    const before = await client.json<PageAnswer>(`${base}&page=${deep - 1}`, 200);
    if (before.total !== size || !before.next_cursor)
      throw new Error(`page ${deep - 1} at ${size}: total ${before.total}, next_cursor ${before.next_cursor}`);
    const cursorDeep = `${base}&cursor=${encodeURIComponent(before.next_cursor)}`;
    const byOffset = await client.json<PageAnswer>(`${base}&page=${deep}`, 200);
    const start = await client.json<PageAnswer>(`${base}&cursor=start`, 200);
    const first = await client.json<PageAnswer>(`${base}&page=1`, 200);
    if (start.data.map((row) => row.id).join() !== first.data.map((row) => row.id).join()) throw new Error('page 1 by cursor differs from page 1 by offset');
    const byCursor = await client.json<PageAnswer>(cursorDeep, 200);
    // Not compared row by row: cursor pages after the first leave out entries changed after the walk began,
    // and the generated data has `updated_at` values up to 300 days after their creation (some in the future).
    if (byCursor.page !== deep || byCursor.data.length === 0 || byOffset.data.length === 0)
      throw new Error(`page ${deep}: the cursor page (page ${byCursor.page}, ${byCursor.data.length} rows) or the offset page (${byOffset.data.length} rows) is wrong`);
    const externalUrl = `${gatewayUrl}/api/v1/movies?external_id=${encodeURIComponent(`imdb:${lookup.imdb}`)}`;
    const found = await client.json<PageAnswer>(externalUrl, 200);
    if (found.data[0]?.id !== lookup.expectedId) throw new Error(`external_id=imdb:${lookup.imdb} did not find ${lookup.expectedId}`);
    const titleUrl = `${gatewayUrl}/api/v1/movies?q=${encodeURIComponent(lookup.titlePrefix)}&limit=20`;

    const latency = await compareLatency(
      [
        { name: 'offset_first', url: `${base}&page=1` },
        { name: 'cursor_first', url: `${base}&cursor=start` },
        { name: 'cursor_deep', url: cursorDeep },
        { name: 'external_id', url: externalUrl },
        { name: 'title_search', url: titleUrl },
      ],
      { repeats: options.repeats, rounds: options.latencyRounds },
    );
    // The deep offset page is only the foil of the cursor target and costs ~1 s per request on the sandbox:
    // interleaved with the others at full rounds it took ~15 of the bench's 25 minutes. A tenth of the rounds.
    const deepOffset = await compareLatency([{ name: 'offset_deep', url: `${base}&page=${deep}` }], {
      repeats: options.repeats,
      rounds: Math.max(10, Math.round(options.latencyRounds / 10)),
    });
    const stats = (name: string) => required(latency[name] ?? deepOffset[name], `${name} latency`);
    const pages = {
      offset_first: stats('offset_first'),
      offset_deep: stats('offset_deep'),
      cursor_first: stats('cursor_first'),
      cursor_deep: stats('cursor_deep'),
    };
    const result: CatalogScaleResults = {
      entries: size,
      limit,
      deep_page: deep,
      pages,
      ratios: {
        cursor_p50: round(pages.cursor_deep.p50 / pages.cursor_first.p50, 2),
        cursor_p95: round(pages.cursor_deep.p95 / pages.cursor_first.p95, 2),
        offset_p50: round(pages.offset_deep.p50 / pages.offset_first.p50, 2),
        offset_p95: round(pages.offset_deep.p95 / pages.offset_first.p95, 2),
      },
      lookup: {
        external_id_query: externalUrl.slice(gatewayUrl.length),
        title_query: titleUrl.slice(gatewayUrl.length),
        external_id: stats('external_id'),
        title_search: stats('title_search'),
        ratio_p95: round(stats('external_id').p95 / stats('title_search').p95, 2),
      },
    };
    const p = (s: UnloadedLatencyStats) => `${s.p50.toFixed(2)} / ${s.p95.toFixed(2)} ms`;
    log(`    deep page at ${size} entries, limit ${limit} (p50 / p95): page 1 vs page ${deep}`);
    log(`      offset: ${p(pages.offset_first)} vs ${p(pages.offset_deep)} (×${result.ratios.offset_p50} / ×${result.ratios.offset_p95})`);
    log(`      cursor: ${p(pages.cursor_first)} vs ${p(pages.cursor_deep)} (×${result.ratios.cursor_p50} / ×${result.ratios.cursor_p95})`);
    log(`    external id lookup ${p(result.lookup.external_id)} vs title search ${p(result.lookup.title_search)} (p95 ×${result.lookup.ratio_p95})`);
    return result;
  } finally {
    client.close();
  }
}

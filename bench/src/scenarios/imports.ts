import { rssMb } from '../stack/bench-stack';
import { loadavg } from 'node:os';
import { median, round } from '../stats';

export interface ImportsResults {
  import: { rows: number; matching_existing: number; seconds: number; rows_per_s: number; counts: Record<string, number>; catalog_rss_growth_mb: number };
  /** Per format: the median of `repetitions` exports (the runs interleaved json, csv, json…), each run's rate, the machine's 1-minute load average around them. */
  export: Array<{
    format: 'json' | 'csv';
    entries: number;
    bytes: number;
    seconds: number;
    entries_per_s: number;
    runs_entries_per_s: number[];
    load_avg_1m: number[];
    catalog_rss_growth_mb: number;
  }>;
}

/** Samples a process's RSS every 50 ms while `work` runs; returns the work's result and the peak growth (MB). */
async function withRssPeak<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = rssMb(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  try {
    const result = await work();
    peak = Math.max(peak, rssMb(pid));
    return { result, growthMb: round(peak - before, 1) };
  } finally {
    clearInterval(timer);
  }
}

/** A Letterboxd diary.csv of `rows` films: the `existing` ones (in the catalog already), then new ones. */
function letterboxdDiary(existing: ReadonlyArray<{ title: string; year: number | null }>, rows: number): string {
  const quote = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const lines = ['Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date'];
  for (let i = 0; i < rows; i++) {
    const film = existing[i] ?? { title: `Bench Import Film ${i}`, year: 1950 + (i % 70) };
    lines.push(`2024-01-01,${quote(film.title)},${film.year ?? ''},https://boxd.it/b${i},${((i % 10) + 1) / 2},,,2024-0${1 + (i % 9)}-1${i % 10}`);
  }
  return lines.join('\n');
}

/**
 * Issue 18: an import of a 10 000-row Letterboxd diary (half of it matching catalog entries, half creating
 * them) through the gateway, timed from the upload to the job's completion; then the export of that list,
 * JSON and CSV, read to the end `repetitions` times each (the median is judged: one export takes about a
 * second, within the noise of a shared machine). The catalog process's RSS is sampled throughout (peak growth).
 */
export async function measureImportExport(
  gatewayUrl: string,
  jwt: string,
  existing: ReadonlyArray<{ title: string; year: number | null }>,
  catalogPid: number,
  log: (text: string) => void,
  repetitions = 3,
  rows = 10_000,
): Promise<ImportsResults> {
  const headers = { authorization: `Bearer ${jwt}` };
  const matching = existing.slice(0, Math.floor(rows / 2));
  const body = letterboxdDiary(matching, rows);
  log(`    uploading ${(body.length / 1e6).toFixed(2)} MB`);
  const imported = await withRssPeak(catalogPid, async () => {
    const started = performance.now();
    const answer = await fetch(`${gatewayUrl}/api/v1/movies/list/imports?source=letterboxd`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body, signal: AbortSignal.timeout(120_000) });
    if (answer.status !== 202) throw new Error(`import: ${answer.status} ${await answer.text()}`);
    const { id } = (await answer.json()) as { id: string };
    log(`    job ${id} accepted after ${((performance.now() - started) / 1000).toFixed(2)} s`);
    const deadline = Date.now() + 600_000;
    for (;;) {
      const polled = await fetch(`${gatewayUrl}/api/v1/movies/list/imports/${id}`, { headers, signal: AbortSignal.timeout(30_000) });
      const job = (await polled.json()) as { status: string; counts: Record<string, number>; failure: string | null };
      if (polled.status !== 200 || Date.now() > deadline) throw new Error(`import job: ${polled.status} ${JSON.stringify(job).slice(0, 300)}`);
      if (job.status === 'failed') throw new Error(`import failed: ${job.failure}`);
      if (job.status === 'completed') return { counts: job.counts, seconds: (performance.now() - started) / 1000 };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  const { counts, seconds } = imported.result;
  const importResult = { rows, matching_existing: matching.length, seconds: round(seconds, 2), rows_per_s: round(rows / seconds, 0), counts, catalog_rss_growth_mb: imported.growthMb };
  log(`    import of ${rows} rows (${matching.length} matching): ${importResult.seconds} s, ${importResult.rows_per_s} rows/s, catalog RSS +${imported.growthMb} MB; ${JSON.stringify(counts)}`);

  // JSON: one entry per line between the head and `]}`; CSV: header + one record per line (a record may span lines only inside quotes, which this data has none of).
  const entries = counts['added'] ?? rows;
  const runs: Record<'json' | 'csv', Array<{ bytes: number; seconds: number; growthMb: number; load: number }>> = { json: [], csv: [] };
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const format of ['json', 'csv'] as const) {
      const load = loadavg()[0] ?? 0;
      const read = await withRssPeak(catalogPid, async () => {
        const started = performance.now();
        const answer = await fetch(`${gatewayUrl}/api/v1/movies/list/export?format=${format}`, { headers });
        if (answer.status !== 200 || !answer.body) throw new Error(`export: ${answer.status}`);
        let bytes = 0;
        for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
        return { bytes, seconds: (performance.now() - started) / 1000 };
      });
      runs[format].push({ ...read.result, growthMb: read.growthMb, load: round(load, 1) });
      log(`    export ${format}: ${entries} entries, ${(read.result.bytes / 1e6).toFixed(1)} MB in ${round(read.result.seconds, 2)} s (${round(entries / read.result.seconds, 0)} entries/s), catalog RSS +${read.growthMb} MB, load ${round(load, 1)}`);
    }
  }
  const exports: ImportsResults['export'] = (['json', 'csv'] as const).map((format) => {
    const seconds = median(runs[format].map((run) => run.seconds));
    return {
      format,
      entries,
      bytes: runs[format][0]?.bytes ?? 0,
      seconds: round(seconds, 2),
      entries_per_s: round(entries / seconds, 0),
      runs_entries_per_s: runs[format].map((run) => round(entries / run.seconds, 0)),
      load_avg_1m: runs[format].map((run) => run.load),
      catalog_rss_growth_mb: Math.max(...runs[format].map((run) => run.growthMb)),
    };
  });
  return { import: importResult, export: exports };
}

import { gzipSync } from 'node:zlib';
import type { OutputBundle } from 'rollup';
import type { Plugin } from 'vite';

/** What a first visit downloads before the app can run: the entry chunks and every chunk they import statically. */
export function firstLoadChunks(bundle: OutputBundle): string[] {
  const chunks = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])));
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = chunks.get(fileName);
    if (!chunk || seen.has(fileName)) return;
    seen.add(fileName);
    // Lazy screens (dynamic imports) load when a person opens them, not on the first load.
    for (const imported of chunk.imports) visit(imported);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
  return [...seen].sort();
}

export interface BudgetReport {
  budgetBytes: number;
  totalBytes: number;
  files: Array<{ file: string; gzipBytes: number }>;
  withinBudget: boolean;
}

export function measureFirstLoad(bundle: OutputBundle, budgetBytes: number): BudgetReport {
  const files = firstLoadChunks(bundle).map((file) => {
    const chunk = bundle[file];
    const code = chunk?.type === 'chunk' ? chunk.code : '';
    return { file, gzipBytes: gzipSync(code, { level: 9 }).length };
  });
  const totalBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  return { budgetBytes, totalBytes, files, withinBudget: totalBytes <= budgetBytes };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export const describeReport = (report: BudgetReport) =>
  `first-load JavaScript: ${kb(report.totalBytes)} gzipped of a ${kb(report.budgetBytes)} budget (${report.files
    .map((f) => `${f.file} ${kb(f.gzipBytes)}`)
    .join(', ')})`;

/**
 * Fails the build when the JavaScript of the first load, gzipped, is over budget: a phone on a slow network
 * pays for every kilobyte before the first screen.
 */
export function bundleBudget(options: { maxGzipBytes: number }): Plugin {
  return {
    name: 'mt-bundle-budget',
    apply: 'build',
    generateBundle(_output, bundle) {
      const report = measureFirstLoad(bundle, options.maxGzipBytes);
      if (!report.withinBudget) this.error(`over budget: ${describeReport(report)}`);
      this.info(describeReport(report));
    },
  };
}

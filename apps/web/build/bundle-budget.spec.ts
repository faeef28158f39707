import type { OutputBundle, OutputChunk } from 'rollup';
import { describe, expect, it } from 'vitest';
import { firstLoadChunks, measureFirstLoad } from './bundle-budget';

const chunk = (fileName: string, code: string, extra: Partial<OutputChunk> = {}) =>
  ({ type: 'chunk', fileName, code, isEntry: false, imports: [], dynamicImports: [], ...extra }) as unknown as OutputChunk;

const bundle = (...chunks: OutputChunk[]): OutputBundle => Object.fromEntries(chunks.map((c) => [c.fileName, c])) as OutputBundle;

describe('the first-load budget', () => {
  const files = bundle(
    chunk('assets/index.js', 'entry', { isEntry: true, imports: ['assets/vendor.js'], dynamicImports: ['assets/list.js'] }),
    chunk('assets/vendor.js', 'vendor', { imports: ['assets/shared.js'] }),
    chunk('assets/shared.js', 'shared'),
    chunk('assets/list.js', 'lazy screen', { imports: ['assets/shared.js'] }),
  );

  it('counts the entry and what it imports statically, not the screens loaded later', () => {
    expect(firstLoadChunks(files)).toEqual(['assets/index.js', 'assets/shared.js', 'assets/vendor.js']);
  });

  it('fails a bundle whose gzipped first load is over the budget', () => {
    const random = Array.from({ length: 4000 }, (_, i) => ((i * 7919) % 65536).toString(36)).join('');
    const big = bundle(chunk('assets/index.js', random, { isEntry: true }));
    const report = measureFirstLoad(big, 1024);
    expect(report.totalBytes).toBeGreaterThan(1024);
    expect(report.withinBudget).toBe(false);
    expect(measureFirstLoad(big, 1024 * 1024).withinBudget).toBe(true);
  });
});

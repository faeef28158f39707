/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';
import SummaryReporter from '../../tools/vitest/summary-reporter.mjs';
import { bundleBudget } from './build/bundle-budget';
import { precompress } from './build/precompress';

const root = import.meta.dirname;
const workspace = path.join(root, '../..');
const outDir = path.join(workspace, 'dist/apps/web');
/** The workspace libraries (`@mt/api-client`...) from their source, as tsconfig.base.json maps them. */
const { compilerOptions } = JSON.parse(readFileSync(path.join(workspace, 'tsconfig.base.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const alias = Object.fromEntries(Object.entries(compilerOptions.paths).map(([name, [target]]) => [name, path.join(workspace, target!)]));
/** The limit for the JavaScript of the first load, gzipped. */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

export default defineConfig({
  root,
  base: '/',
  cacheDir: path.join(workspace, 'node_modules/.vite/apps/web'),
  resolve: { alias },
  plugins: [react(), bundleBudget({ maxGzipBytes: FIRST_LOAD_BUDGET_BYTES }), precompress({ dir: outDir })],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // No inline polyfill script: the CSP allows none, and every supported browser has modulepreload.
    modulePreload: { polyfill: false },
    // The budget plugin measures what matters (first load); Vite's own table would gzip everything again.
    reportCompressedSize: false,
    sourcemap: false,
  },
  // `npx nx serve web` against a running stack (`npm start` on 8080).
  server: { host: '127.0.0.1', port: 4200, proxy: { '/api': process.env['MT_API_URL'] ?? 'http://127.0.0.1:8080' } },
  preview: { host: '127.0.0.1', port: 4300 },
  test: {
    root,
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}', 'build/**/*.spec.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // userEvent types key by key: on a loaded 2-core machine a screen test takes seconds.
    testTimeout: 30_000,
    reporters: ['default', new SummaryReporter({ project: 'web' })],
  },
});

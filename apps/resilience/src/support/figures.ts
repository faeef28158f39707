import { findWorkspaceRoot } from '@mt/stack';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where each suite adds its figures; the global teardown prints them (kept out of git: tmp/ is ignored). */
export const resultsFile = (root: string = findWorkspaceRoot()): string =>
  path.join(root, 'tmp', 'resilience-results.json');

export type Figures = Record<string, unknown>;

export function readFigures(file = resultsFile()): Figures {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Figures;
  } catch {
    return {};
  }
}

/** Merges one suite's figures into the results file (suites run one at a time). */
export function recordFigures(section: string, figures: Figures, file = resultsFile()): void {
  const all = readFigures(file);
  all[section] = figures;
  all['updated_at'] = new Date().toISOString();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

import { findWorkspaceRoot } from '@mt/stack';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ConformanceFailure, OpenApiConformance } from './openapi-conformance';

interface StackEntry {
  validated: number;
  failed: number;
  failures: ConformanceFailure[];
  recorded_at: string;
}

interface Report {
  /** The test process that wrote the entries: a new run starts a new report. */
  run: number;
  total: { validated: number; failed: number };
  stacks: Record<string, StackEntry>;
}

const reportFile = () => path.join(findWorkspaceRoot(), 'tmp', 'conformance.json');

function readReport(file: string): Report | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Report;
  } catch {
    return undefined;
  }
}

/**
 * Adds one stack's conformance figures to tmp/conformance.json (entries of earlier runs are dropped; the
 * suite files of one run share the Jest process, it runs them one at a time) and returns the summary lines.
 */
export function recordConformance(name: string, conformance: OpenApiConformance): string {
  const file = reportFile();
  const previous = readReport(file);
  const stacks = previous?.run === process.pid ? { ...previous.stacks } : {};
  stacks[name] = {
    validated: conformance.validated,
    failed: conformance.failures.length,
    failures: conformance.failures,
    recorded_at: new Date().toISOString(),
  };
  const entries = Object.values(stacks);
  const total = {
    validated: entries.reduce((sum, entry) => sum + entry.validated, 0),
    failed: entries.reduce((sum, entry) => sum + entry.failed, 0),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ run: process.pid, total, stacks } satisfies Report, null, 2)}\n`);
  return [
    `${conformance.summary()} (${name} stack)`,
    `OpenAPI conformance so far in this run: ${total.validated} responses validated, ${total.failed} failed (${path.relative(process.cwd(), file)})`,
    ...conformance.failures.map(
      (failure) => `  ✗ ${failure.method} ${failure.path} → ${failure.status}: ${failure.problem}`,
    ),
  ].join('\n');
}

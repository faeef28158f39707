// Standard checks of an OpenAPI document: @apidevtools/swagger-parser validation and Redocly's
// recommended ruleset (run in a child process: @redocly/openapi-core is ESM-only, Jest runs CommonJS).
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPI } from 'openapi-types';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  pointer?: string;
}

export async function redoclyLint(document: object): Promise<LintProblem[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mt-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, 'lint-openapi.mjs'), file], { maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout) as LintProblem[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rejects with the parser's message when the document is not valid OpenAPI (it works on a copy). */
export async function swaggerParserValidate(document: object): Promise<void> {
  await SwaggerParser.validate(structuredClone(document) as OpenAPI.Document);
}

/** The document with every $ref resolved, for validating real responses against it. */
export async function dereferenced(document: object): Promise<Record<string, unknown>> {
  return (await SwaggerParser.dereference(structuredClone(document) as OpenAPI.Document)) as unknown as Record<string, unknown>;
}

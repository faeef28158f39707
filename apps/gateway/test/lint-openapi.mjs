// Lints an OpenAPI document with the project's Redocly configuration (redocly.yaml at the repository root:
// the recommended ruleset and the documented adjustments) and prints the problems as JSON.
// A separate Node process because @redocly/openapi-core is ESM-only and Jest runs CommonJS.
// Usage: node lint-openapi.mjs <document.json>
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const file = process.argv[2];
const configPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../redocly.yaml');
const config = await loadConfig({ configPath });
const problems = await lintFromString({ source: readFileSync(file, 'utf8'), absoluteRef: pathToFileURL(file).href, config });
process.stdout.write(
  JSON.stringify(
    problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location?.[0]?.pointer })),
  ),
);

// Lints an OpenAPI document with Redocly's recommended ruleset and prints the problems as JSON.
// A separate Node process because @redocly/openapi-core is ESM-only and Jest runs CommonJS.
// Usage: node lint-openapi.mjs <document.json>
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source: readFileSync(file, 'utf8'), absoluteRef: pathToFileURL(file).href, config });
process.stdout.write(
  JSON.stringify(
    problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location?.[0]?.pointer })),
  ),
);

import { existsSync } from 'node:fs';
import { readRepoFile, repoPath } from './repo';

/** Variables a Node process reads itself rather than through the service's config schema. */
export const RUNTIME_VARIABLES = ['NODE_ENV', 'NODE_OPTIONS', 'UV_THREADPOOL_SIZE'];

const KEY = /^\s+([A-Z][A-Z0-9_]+):/gm;
const keysOf = (source: string) => [...source.matchAll(KEY)].map((match) => match[1]);

/** The env shapes of @mt/config (`baseEnvShape`, `mongoEnvShape`, ...) and the variables each declares. */
function sharedShapes(): Map<string, string[]> {
  const source = readRepoFile('libs', 'shared', 'config', 'src', 'common-env.ts');
  return new Map(
    source
      .split(/^export const /m)
      .slice(1)
      .map((block) => [block.split(/\W/)[0], keysOf(block)]),
  );
}

/** Where an app declares its configuration: src/config.ts, or src/composition/config.ts in a layered app. */
function configSource(app: string): { path: string; source: string } {
  for (const parts of [['src', 'config.ts'], ['src', 'composition', 'config.ts']]) {
    if (existsSync(repoPath('apps', app, ...parts))) return { path: ['apps', app, ...parts].join('/'), source: readRepoFile('apps', app, ...parts) };
  }
  throw new Error(`apps/${app} has no src/config.ts nor src/composition/config.ts`);
}

/**
 * The environment variables an app's config schema declares, read from its config source (its own keys
 * plus the @mt/config shapes it spreads). Source-level on purpose: schemas are not all exported.
 */
export function configVariables(app: string): string[] {
  const { path: file, source } = configSource(app);
  const shapes = sharedShapes();
  const spread = [...source.matchAll(/\.\.\.(\w+Shape)\b/g)].flatMap((match) => {
    const keys = shapes.get(match[1]);
    if (!keys) throw new Error(`${file} spreads unknown shape ${match[1]}`);
    return keys;
  });
  const variables = [...new Set([...spread, ...keysOf(source)])].sort();
  for (const expected of ['PORT', 'LOG_LEVEL', 'INTERNAL_SECRET']) {
    if (!variables.includes(expected))
      throw new Error(`could not read the variables of ${file}`);
  }
  return variables;
}

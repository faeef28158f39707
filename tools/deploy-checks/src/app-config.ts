import { readRepoFile } from './repo';

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

/**
 * The environment variables an app's config schema declares, read from apps/<app>/src/config.ts (its
 * own keys plus the @mt/config shapes it spreads). Source-level on purpose: schemas are not all exported.
 */
export function configVariables(app: string): string[] {
  const source = readRepoFile('apps', app, 'src', 'config.ts');
  const shapes = sharedShapes();
  const spread = [...source.matchAll(/\.\.\.(\w+Shape)\b/g)].flatMap((match) => {
    const keys = shapes.get(match[1]);
    if (!keys) throw new Error(`apps/${app}/src/config.ts spreads unknown shape ${match[1]}`);
    return keys;
  });
  const variables = [...new Set([...spread, ...keysOf(source)])].sort();
  for (const expected of ['PORT', 'LOG_LEVEL', 'INTERNAL_SECRET']) {
    if (!variables.includes(expected))
      throw new Error(`could not read the variables of apps/${app}/src/config.ts`);
  }
  return variables;
}

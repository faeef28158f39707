// `npm run mt -- <args>`: runs the built CLI, building it first only when it is missing or older than any
// file it was built from (the bundle's source map lists them), so an unchanged CLI starts at once.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const outdir = path.join('dist', 'apps', 'cli');
const bundle = path.join(outdir, 'main.js');

const mtimeOf = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

function isCurrent() {
  const built = mtimeOf(bundle);
  if (built === undefined) return false;
  let sources;
  try {
    sources = JSON.parse(readFileSync(`${bundle}.map`, 'utf8')).sources.map((source) => path.resolve(outdir, source));
  } catch {
    return false;
  }
  // The build's own inputs besides the sources: its script, the workspace manifest (versions), the tsconfigs.
  const inputs = [...sources, 'apps/cli/build.mjs', 'package.json', 'apps/cli/tsconfig.json', 'tsconfig.base.json'];
  return inputs.every((file) => {
    const changed = mtimeOf(file);
    return changed !== undefined && changed <= built;
  });
}

if (!isCurrent()) {
  const build = spawnSync(process.execPath, ['apps/cli/build.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
createRequire(import.meta.url)(path.resolve(bundle));
